import Signals
import Testing

@Suite("Subject")
struct SubjectTests {
  @Test("A subject sends each event to whoever is subscribed at that moment")
  func hotDelivery() {
    let subject = Subject<Int, Never>()
    let early = Recorder<Int, Never>()
    let late = Recorder<Int, Never>()
    subject.sendNext(0)
    subject.subscribe(early)
    subject.sendNext(1)
    subject.subscribe(late)
    subject.sendNext(2)
    subject.sendCompleted()
    #expect(early.events == [.next(1), .next(2), .completed])
    #expect(late.events == [.next(2), .completed])
  }

  @Test("A disposed subscriber receives nothing more; the others carry on")
  func disposalSilencesOneSubscriber() {
    let subject = Subject<Int, Never>()
    let leaving = Recorder<Int, Never>()
    let staying = Recorder<Int, Never>()
    let subscription = subject.subscribe(leaving)
    subject.subscribe(staying)
    subject.sendNext(1)
    subscription.dispose()
    subject.sendNext(2)
    #expect(leaving.events == [.next(1)])
    #expect(staying.events == [.next(1), .next(2)])
    #expect(subscription.isDisposed)
  }

  @Test(
    "Semantics: a late subscriber to a completed subject is completed at once", .tags(.semantics))
  func lateSubscriberGetsCompletion() {
    let subject = Subject<Int, TestFailure>()
    subject.sendNext(1)
    subject.sendCompleted()
    let late = Recorder<Int, TestFailure>()
    subject.subscribe(late)
    #expect(late.events == [.completed])
  }

  @Test(
    "Semantics: a late subscriber to a failed subject gets the error at once", .tags(.semantics))
  func lateSubscriberGetsError() {
    let subject = Subject<Int, TestFailure>()
    subject.sendError(TestFailure())
    let late = Recorder<Int, TestFailure>()
    let subscription = subject.subscribe(late)
    #expect(late.events == [.error(TestFailure())])
    #expect(subscription.isDisposed)
  }

  @Test("Semantics: sends after termination are ignored", .tags(.semantics))
  func sendsAfterTerminationAreIgnored() {
    let subject = Subject<Int, TestFailure>()
    let recorder = Recorder<Int, TestFailure>()
    subject.subscribe(recorder)
    subject.sendCompleted()
    subject.sendNext(1)
    subject.sendError(TestFailure())
    subject.sendCompleted()
    #expect(recorder.events == [.completed])
    let late = Recorder<Int, TestFailure>()
    subject.subscribe(late)
    #expect(late.events == [.completed])
  }

  @Test("A subject can be fed by a cold signal (coldSignal.subscribe(subject))")
  func subjectAsSubscriber() {
    let subject = Subject<Int, Never>()
    let recorder = Recorder<Int, Never>()
    subject.subscribe(recorder)
    Signal<Int, Never>.from([1, 2]).subscribe(subject)
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  // MARK: Several upstreams

  @Test(
    "A subject fed by two subjects forwards interleaved values in send order", .tags(.upstreams))
  func twoUpstreamsInterleave() {
    let a = Subject<String, TestFailure>()
    let b = Subject<String, TestFailure>()
    let subject = Subject<String, TestFailure>()
    let recorder = Recorder<String, TestFailure>()
    subject.subscribe(recorder)
    a.subscribe(subject)
    b.subscribe(subject)
    a.sendNext("a1")
    b.sendNext("b1")
    b.sendNext("b2")
    a.sendNext("a2")
    #expect(recorder.values == ["a1", "b1", "b2", "a2"])
  }

  @Test(
    "When one upstream completes, the subject completes once, ignores the other, disposes both",
    .tags(.upstreams))
  func oneUpstreamCompletes() {
    let a = Subject<String, TestFailure>()
    let b = Subject<String, TestFailure>()
    let subject = Subject<String, TestFailure>()
    let recorder = Recorder<String, TestFailure>()
    subject.subscribe(recorder)
    let fromA = a.subscribe(subject)
    let fromB = b.subscribe(subject)
    a.sendNext("a1")
    a.sendCompleted()
    #expect(fromA.isDisposed)
    #expect(fromB.isDisposed)
    b.sendNext("b1")
    b.sendCompleted()
    b.sendError(TestFailure())
    #expect(recorder.events == [.next("a1"), .completed])
  }

  @Test(
    "When one upstream fails, the subject fails once, ignores the other, disposes both",
    .tags(.upstreams))
  func oneUpstreamFails() {
    let a = Subject<String, TestFailure>()
    let b = Subject<String, TestFailure>()
    let subject = Subject<String, TestFailure>()
    let recorder = Recorder<String, TestFailure>()
    subject.subscribe(recorder)
    let fromA = a.subscribe(subject)
    let fromB = b.subscribe(subject)
    b.sendNext("b1")
    b.sendError(TestFailure(message: "b failed"))
    #expect(fromA.isDisposed)
    #expect(fromB.isDisposed)
    a.sendNext("a1")
    a.sendError(TestFailure(message: "a failed"))
    #expect(recorder.events == [.next("b1"), .error(TestFailure(message: "b failed"))])
  }

  @Test("Termination disposes cold upstream subscriptions too", .tags(.upstreams))
  func terminationDisposesColdUpstreams() {
    let a = Probe<Int, Never>()
    let b = Probe<Int, Never>()
    let subject = Subject<Int, Never>()
    a.signal.subscribe(subject)
    b.signal.subscribe(subject)
    #expect(!a.isDisposed())
    #expect(!b.isDisposed())
    subject.sendCompleted()
    #expect(a.isDisposed())
    #expect(b.isDisposed())
  }

  @Test(
    "Subscribing a terminated subject to a new upstream disposes that subscription at once",
    .tags(.upstreams))
  func terminatedSubjectDisposesNewUpstream() {
    let subject = Subject<Int, Never>()
    subject.sendCompleted()
    let upstream = Subject<Int, Never>()
    let subscription = upstream.subscribe(subject)
    #expect(subscription.isDisposed)

    let cold = Probe<Int, Never>()
    let coldSubscription = cold.signal.subscribe(subject)
    #expect(coldSubscription.isDisposed)
    #expect(cold.isDisposed())
  }
}
