import Signals
import Testing

@Suite("Signal+Take")
struct SignalTakeTests {
  @Test("take(2) passes the first two values, then completes")
  func takesFirstValues() {
    let recorder = Recorder<Int, Never>()
    Signal<Int, Never>.from([1, 2, 3, 4]).take(2).subscribe(recorder)
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("take disposes the upstream subscription right after the last value")
  func disposesUpstreamAfterLastValue() {
    let probe = Probe<Int, Never>()
    let recorder = Recorder<Int, Never>()
    probe.signal.take(2).subscribe(recorder)
    probe.sendNext(1)
    #expect(!probe.isDisposed())
    probe.sendNext(2)
    #expect(probe.isDisposed())
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("take(0) completes at once without subscribing to the source")
  func takeZero() {
    let probe = Probe<Int, Never>()
    let recorder = Recorder<Int, Never>()
    probe.signal.take(0).subscribe(recorder)
    #expect(recorder.events == [.completed])
    #expect(probe.subscriptionCount == 0)
  }

  @Test("take forwards an early completion or error")
  func forwardsEarlyTerminal() {
    let completed = Recorder<Int, TestFailure>()
    Signal<Int, TestFailure>.just(1).take(5).subscribe(completed)
    #expect(completed.events == [.next(1), .completed])
    let failed = Recorder<Int, TestFailure>()
    Signal<Int, TestFailure>.error(TestFailure()).take(5).subscribe(failed)
    #expect(failed.events == [.error(TestFailure())])
  }

  @Test("Each subscription to take counts on its own")
  func countPerSubscription() {
    let subject = Subject<Int, Never>()
    let taken = subject.take(1)
    let first = Recorder<Int, Never>()
    taken.subscribe(first)
    subject.sendNext(1)
    let second = Recorder<Int, Never>()
    taken.subscribe(second)
    subject.sendNext(2)
    #expect(first.events == [.next(1), .completed])
    #expect(second.events == [.next(2), .completed])
  }

  @Test("take with a negative count acts as take(0), as RxJS's take does")
  func takeNegative() {
    let probe = Probe<Int, Never>()
    let recorder = Recorder<Int, Never>()
    probe.signal.take(-1).subscribe(recorder)
    #expect(recorder.events == [.completed])
    #expect(probe.subscriptionCount == 0)
  }
}
