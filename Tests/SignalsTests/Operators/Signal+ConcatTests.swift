import Signals
import Testing

@Suite("Signal+Concat")
struct SignalConcatTests {
  @Test("concat sends this signal's values, then the other's")
  func concatenates() {
    let recorder = Recorder<Int, Never>()
    Signal<Int, Never>.from([1, 2]).concat(Signal.from([3])).subscribe(recorder)
    #expect(recorder.events == [.next(1), .next(2), .next(3), .completed])
  }

  @Test("concat subscribes to the other signal only after this one completes")
  func subscribesToOtherAfterCompletion() {
    let first = Probe<Int, Never>()
    let second = Probe<Int, Never>()
    let recorder = Recorder<Int, Never>()
    first.signal.concat(second.signal).subscribe(recorder)
    first.sendNext(1)
    #expect(second.subscriptionCount == 0)
    first.sendCompleted()
    #expect(second.subscriptionCount == 1)
    second.sendNext(2)
    second.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("An error ends concat without subscribing to the other signal")
  func errorSkipsTheOther() {
    let second = Probe<Int, TestFailure>()
    let recorder = Recorder<Int, TestFailure>()
    Signal<Int, TestFailure>.error(TestFailure()).concat(second.signal).subscribe(recorder)
    #expect(recorder.events == [.error(TestFailure())])
    #expect(second.subscriptionCount == 0)
  }

  @Test("Disposing a concat disposes the follow-up subscription")
  func disposalReachesTheOther() {
    let second = Probe<Int, Never>()
    let subscription = Signal<Int, Never>.empty.concat(second.signal).subscribe(Recorder())
    #expect(second.subscriptionCount == 1)
    #expect(!second.isDisposed())
    subscription.dispose()
    #expect(second.isDisposed())
  }
}
