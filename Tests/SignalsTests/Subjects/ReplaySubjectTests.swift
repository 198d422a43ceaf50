import Signals
import Testing

@Suite("ReplaySubject")
struct ReplaySubjectTests {
  @Test(
    "Semantics: the replay reaches the newcomer before subscribe returns, then live events",
    .tags(.semantics))
  func replayIsSynchronous() {
    let subject = ReplaySubject<Int, Never>()
    subject.sendNext(1)
    subject.sendNext(2)
    let recorder = Recorder<Int, Never>()
    subject.subscribe(recorder)
    #expect(recorder.events == [.next(1), .next(2)])
    subject.sendNext(3)
    #expect(recorder.events == [.next(1), .next(2), .next(3)])
  }

  @Test("Semantics: the replay sends the values, then the terminal event", .tags(.semantics))
  func replaysValuesThenTerminal() {
    let subject = ReplaySubject<Int, TestFailure>()
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendCompleted()
    let recorder = Recorder<Int, TestFailure>()
    subject.subscribe(recorder)
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("Unlimited by default: every value is replayed")
  func unlimitedByDefault() {
    let subject = ReplaySubject<Int, Never>()
    for value in 0..<1000 { subject.sendNext(value) }
    let recorder = Recorder<Int, Never>()
    subject.subscribe(recorder)
    #expect(recorder.values == Array(0..<1000))
  }

  @Test("capacity: 2 replays only the last two values")
  func capacityTwo() {
    let subject = ReplaySubject<Int, Never>(capacity: 2)
    for value in 1...5 { subject.sendNext(value) }
    subject.sendCompleted()
    let recorder = Recorder<Int, Never>()
    subject.subscribe(recorder)
    #expect(recorder.events == [.next(4), .next(5), .completed])
  }

  /// The history is trimmed lazily (compacted once half of it is stale), so check the window at
  /// every step across several compactions, for a small and a larger capacity.
  @Test(
    "capacity: n keeps exactly the last n values however many were sent", arguments: [1, 3, 40])
  func capacityWindowAcrossCompactions(capacity: Int) {
    let subject = ReplaySubject<Int, Never>(capacity: capacity)
    for sent in 1...300 {
      subject.sendNext(sent)
      let recorder = Recorder<Int, Never>()
      subject.subscribe(recorder).dispose()
      #expect(recorder.events == (max(1, sent - capacity + 1)...sent).map { .next($0) })
    }
  }

  @Test("capacity: 0 replays no value, only the terminal event")
  func capacityZero() {
    let subject = ReplaySubject<Int, Never>(capacity: 0)
    subject.sendNext(1)
    let before = Recorder<Int, Never>()
    subject.subscribe(before)
    #expect(before.events.isEmpty)
    subject.sendCompleted()
    let after = Recorder<Int, Never>()
    subject.subscribe(after)
    #expect(after.events == [.completed])
  }

  @Test(
    "Semantics: the history is trimmed to capacity before a value is delivered live",
    .tags(.semantics))
  func trimsBeforeDeliveringLive() {
    let subject = ReplaySubject<Int, Never>(capacity: 2)
    let newcomer = Recorder<Int, Never>()
    // Subscribing from inside the live delivery of 3 shows the history at that moment.
    subject.subscribe(next: { value in
      if value == 3 { subject.subscribe(newcomer) }
    })
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendNext(3)
    #expect(newcomer.values == [2, 3])
    subject.sendNext(4)
    #expect(newcomer.values == [2, 3, 4])
  }

  @Test("Semantics: disposing during the replay stops the replay", .tags(.semantics))
  func disposalDuringReplayStopsIt() {
    let subject = ReplaySubject<Int, Never>()
    for value in 1...5 { subject.sendNext(value) }
    subject.sendCompleted()
    let recorder = Recorder<Int, Never> { event, recorder in
      if event == .next(2) { recorder.disposeSubscription() }
    }
    let subscription = subject.subscribe(recorder)
    #expect(recorder.events == [.next(1), .next(2)])
    #expect(subscription.isDisposed)
  }

  @Test("A live value sent from inside a replayed value's callback arrives after the replay")
  func reentrantValueDuringReplay() {
    let subject = ReplaySubject<Int, Never>()
    subject.sendNext(1)
    subject.sendNext(2)
    let recorder = Recorder<Int, Never> { event, _ in
      if event == .next(1) { subject.sendNext(3) }
    }
    subject.subscribe(recorder)
    #expect(recorder.values == [1, 2, 3])
  }

  @Test(
    "A completion sent from inside a replayed value's callback does not cut the replay short",
    .tags(.reentrancy, .regression))
  func reentrantCompletionDuringReplay() {
    let subject = ReplaySubject<Int, Never>()
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendNext(3)
    let recorder = Recorder<Int, Never> { event, _ in
      if event == .next(1) { subject.sendCompleted() }
    }
    subject.subscribe(recorder)
    #expect(recorder.events == [.next(1), .next(2), .next(3), .completed])
  }

  @Test(
    "An error sent from inside a replayed value's callback arrives after the whole replay",
    .tags(.reentrancy, .regression))
  func reentrantErrorDuringReplay() {
    let subject = ReplaySubject<Int, TestFailure>(capacity: 2)
    for value in 1...4 { subject.sendNext(value) }
    let recorder = Recorder<Int, TestFailure> { event, _ in
      if event == .next(3) { subject.sendError(TestFailure()) }
    }
    subject.subscribe(recorder)
    #expect(recorder.events == [.next(3), .next(4), .error(TestFailure())])
  }

  // MARK: RAC 2.5 specs

  @Test("RAC: capacity 1, two values sent: a newcomer gets only the last", .tags(.racSpec))
  func racCapacityOneKeepsTheLast() {
    let subject = ReplaySubject<String, Never>(capacity: 1)
    subject.sendNext("a")
    subject.sendNext("b")
    let recorder = Recorder<String, Never>()
    subject.subscribe(recorder)
    #expect(recorder.events == [.next("b")])
  }

  @Test(
    "RAC: capacity 1, completed with no values: a newcomer gets only completed", .tags(.racSpec))
  func racCapacityOneCompletedWithoutValues() {
    let subject = ReplaySubject<String, Never>(capacity: 1)
    subject.sendCompleted()
    let recorder = Recorder<String, Never>()
    subject.subscribe(recorder)
    #expect(recorder.events == [.completed])
  }

  @Test("RAC: an error is replayed to late subscribers", .tags(.racSpec))
  func racErrorIsReplayed() {
    let subject = ReplaySubject<String, TestFailure>(capacity: 1)
    subject.sendNext("a")
    subject.sendError(TestFailure())
    let first = Recorder<String, TestFailure>()
    let second = Recorder<String, TestFailure>()
    subject.subscribe(first)
    subject.subscribe(second)
    #expect(first.events == [.next("a"), .error(TestFailure())])
    #expect(second.events == [.next("a"), .error(TestFailure())])
  }

  @Test(
    "RAC: a subscriber that disposes inside the first replayed value receives only it",
    .tags(.racSpec))
  func racDisposeInsideFirstReplayedValue() {
    let subject = ReplaySubject<String, Never>()
    subject.sendNext("a")
    subject.sendNext("b")
    subject.sendCompleted()
    let recorder = Recorder<String, Never> { _, recorder in recorder.disposeSubscription() }
    subject.subscribe(recorder)
    #expect(recorder.events == [.next("a")])
  }
}
