import Signals
import Testing

@Suite("MulticastConnection")
struct MulticastConnectionTests {
  @Test(
    "RAC: a cold signal's closure runs once per subscription (two subscribers, two runs)",
    .tags(.racSpec))
  func racColdRunsPerSubscription() {
    let probe = Probe<Int, Never> { $0.sendNext(1) }
    probe.signal.subscribe(Recorder())
    probe.signal.subscribe(Recorder())
    #expect(probe.subscriptionCount == 2)
  }

  @Test("RAC: publish() subscribes nothing before connect(), then exactly once", .tags(.racSpec))
  func racPublishConnectRunsOnce() {
    let probe = Probe<Int, Never>()
    let connection = probe.signal.publish()
    let first = Recorder<Int, Never>()
    let second = Recorder<Int, Never>()
    connection.signal.subscribe(first)
    connection.signal.subscribe(second)
    #expect(probe.subscriptionCount == 0)
    connection.connect()
    #expect(probe.subscriptionCount == 1)
    probe.sendNext(1)
    probe.sendCompleted()
    #expect(first.events == [.next(1), .completed])
    #expect(second.events == [.next(1), .completed])
  }

  @Test(
    "RAC: connect() twice returns the same disposable object and subscribes once",
    .tags(.racSpec, .semantics))
  func racConnectIsIdempotent() {
    let probe = Probe<Int, Never>()
    let connection = probe.signal.publish()
    let first = connection.connect()
    let second = connection.connect()
    #expect(isSameObject(first, second))
    #expect(probe.subscriptionCount == 1)
  }

  @Test(
    "RAC: after the connect disposable is disposed, connect() does not resubscribe",
    .tags(.racSpec, .semantics))
  func racNoResubscribeAfterDisposal() {
    let probe = Probe<Int, Never>()
    let connection = probe.signal.publish()
    let recorder = Recorder<Int, Never>()
    connection.signal.subscribe(recorder)
    let disposable = connection.connect()
    probe.sendNext(1)
    disposable.dispose()
    #expect(disposable.isDisposed)
    #expect(probe.isDisposed())
    probe.sendNext(2)
    let again = connection.connect()
    #expect(isSameObject(again, disposable))
    #expect(probe.subscriptionCount == 1)
    #expect(recorder.values == [1])
  }

  @Test("A subscriber that joins after connect() misses what was sent before (publish is live)")
  func publishedSignalIsHot() {
    let probe = Probe<Int, Never>()
    let connection = probe.signal.publish()
    connection.connect()
    probe.sendNext(1)
    let late = Recorder<Int, Never>()
    connection.signal.subscribe(late)
    probe.sendNext(2)
    #expect(late.values == [2])
  }

  @Test("Subscribing to connection.signal never subscribes to the source")
  func sharedSignalIsTheSubject() {
    let probe = Probe<Int, Never>()
    let connection = probe.signal.publish()
    for _ in 0..<3 { connection.signal.subscribe(Recorder()) }
    #expect(probe.subscriptionCount == 0)
  }

  // MARK: autoconnect

  @Test(
    "RAC: autoconnect's first subscriber connects, the second does not resubscribe",
    .tags(.racSpec, .semantics))
  func racAutoconnectFirstSubscriberConnects() {
    let probe = Probe<Int, Never>()
    let signal = probe.signal.publish().autoconnect()
    #expect(probe.subscriptionCount == 0)
    let first = Recorder<Int, Never>()
    signal.subscribe(first)
    #expect(probe.subscriptionCount == 1)
    let second = Recorder<Int, Never>()
    signal.subscribe(second)
    #expect(probe.subscriptionCount == 1)
    probe.sendNext(1)
    #expect(first.values == [1])
    #expect(second.values == [1])
  }

  @Test(
    "Semantics: autoconnect joins the subject before connecting, so synchronous values arrive",
    .tags(.semantics))
  func autoconnectJoinsThenConnects() {
    let probe = Probe<Int, Never> { subscriber in
      subscriber.sendNext(1)
      subscriber.sendNext(2)
    }
    let recorder = Recorder<Int, Never>()
    probe.signal.publish().autoconnect().subscribe(recorder)
    #expect(recorder.values == [1, 2])
  }

  @Test(
    "RAC: the last disposal disposes the source; a later subscriber does not reconnect",
    .tags(.racSpec, .semantics))
  func racAutoconnectDisposesOnLastDisposalAndNeverReconnects() {
    let probe = Probe<Int, Never>()
    let signal = probe.signal.publish().autoconnect()
    let first = signal.subscribe(Recorder())
    let second = signal.subscribe(Recorder())
    first.dispose()
    #expect(!probe.isDisposed())
    second.dispose()
    #expect(probe.isDisposed())
    let late = Recorder<Int, Never>()
    signal.subscribe(late)
    #expect(probe.subscriptionCount == 1)
    probe.sendNext(1)
    #expect(late.events.isEmpty)
  }

  @Test(
    "RAC: after autoconnect disconnects, a late subscriber still gets a ReplaySubject's values",
    .tags(.racSpec))
  func racAutoconnectReplaySubjectKeepsValues() {
    let probe = Probe<Int, Never>()
    let signal = probe.signal.multicast(ReplaySubject()).autoconnect()
    let first = signal.subscribe(Recorder())
    probe.sendNext(1)
    probe.sendNext(2)
    first.dispose()
    #expect(probe.isDisposed())
    let late = Recorder<Int, Never>()
    signal.subscribe(late)
    #expect(late.values == [1, 2])
    #expect(probe.subscriptionCount == 1)
  }

  @Test("autoconnect over a source that completes at once: every subscriber completes, one run")
  func autoconnectSynchronousCompletion() {
    let probe = Probe<Int, Never> { subscriber in
      subscriber.sendNext(1)
      subscriber.sendCompleted()
    }
    let signal = probe.signal.publish().autoconnect()
    let first = Recorder<Int, Never>()
    let second = Recorder<Int, Never>()
    signal.subscribe(first)
    signal.subscribe(second)
    #expect(first.events == [.next(1), .completed])
    #expect(second.events == [.completed])
    #expect(probe.subscriptionCount == 1)
  }

  @Test("An autoconnect subscriber that terminates counts as gone")
  func autoconnectTerminationCountsAsDisposal() {
    let probe = Probe<Int, TestFailure>()
    let subject = Subject<Int, TestFailure>()
    let connection = probe.signal.multicast(subject)
    let recorder = Recorder<Int, TestFailure>()
    connection.autoconnect().take(1).subscribe(recorder)
    probe.sendNext(1)
    #expect(recorder.events == [.next(1), .completed])
    #expect(probe.isDisposed())
  }
}
