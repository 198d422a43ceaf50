import Signals
import Testing

@Suite("Signal+Map")
struct SignalMapTests {
  @Test("map transforms each value and forwards completion")
  func mapsValues() {
    let recorder = Recorder<String, TestFailure>()
    Signal<String, TestFailure>.from(["a", "b"]).map { $0.uppercased() }.subscribe(recorder)
    #expect(recorder.events == [.next("A"), .next("B"), .completed])
  }

  @Test("map forwards an error unchanged")
  func forwardsError() {
    let subject = Subject<Int, TestFailure>()
    let recorder = Recorder<Int, TestFailure>()
    subject.map { $0 * 10 }.subscribe(recorder)
    subject.sendNext(1)
    subject.sendError(TestFailure())
    #expect(recorder.events == [.next(10), .error(TestFailure())])
  }

  @Test("map subscribes to its source once per subscription, and disposal reaches the source")
  func subscriptionAndDisposal() {
    let probe = Probe<Int, Never>()
    let mapped = probe.signal.map { $0 + 1 }
    #expect(probe.subscriptionCount == 0)
    let subscription = mapped.subscribe(Recorder())
    mapped.subscribe(Recorder())
    #expect(probe.subscriptionCount == 2)
    subscription.dispose()
    #expect(probe.isDisposed(0))
    #expect(!probe.isDisposed(1))
  }
}
