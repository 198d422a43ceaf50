import Signals
import Testing

@Suite("Signal+Catch")
struct SignalCatchTests {
  @Test("catch(to:) switches to the replacement on error")
  func catchTo() {
    let subject = Subject<String, TestFailure>()
    let recorder = Recorder<String, Never>()
    subject.catch(to: Signal<String, Never>.just("x")).subscribe(recorder)
    subject.sendNext("a")
    subject.sendError(TestFailure())
    #expect(recorder.events == [.next("a"), .next("x"), .completed])
  }

  @Test("catch(to:) does not subscribe to the replacement when the source completes")
  func noReplacementOnCompletion() {
    let replacement = Probe<String, Never>()
    let recorder = Recorder<String, Never>()
    Signal<String, TestFailure>.just("a").catch(to: replacement.signal).subscribe(recorder)
    #expect(recorder.events == [.next("a"), .completed])
    #expect(replacement.subscriptionCount == 0)
  }

  @Test("catch { } builds the replacement from the error")
  func catchHandler() {
    let recorder = Recorder<String, TestFailure>()
    Signal<String, TestFailure>.error(TestFailure(message: "first"))
      .catch { error in Signal<String, TestFailure>.just("caught \(error.message)") }
      .subscribe(recorder)
    #expect(recorder.events == [.next("caught first"), .completed])
  }

  @Test("A failing replacement fails the result")
  func failingReplacement() {
    let recorder = Recorder<String, TestFailure>()
    Signal<String, TestFailure>.error(TestFailure(message: "first"))
      .catch { _ in Signal<String, TestFailure>.error(TestFailure(message: "second")) }
      .subscribe(recorder)
    #expect(recorder.events == [.error(TestFailure(message: "second"))])
  }

  @Test("Disposing the result disposes the replacement subscription")
  func disposalReachesTheReplacement() {
    let replacement = Probe<String, Never>()
    let subscription = Signal<String, TestFailure>.error(TestFailure())
      .catch(to: replacement.signal)
      .subscribe(Recorder())
    #expect(replacement.subscriptionCount == 1)
    subscription.dispose()
    #expect(replacement.isDisposed())
  }
}
