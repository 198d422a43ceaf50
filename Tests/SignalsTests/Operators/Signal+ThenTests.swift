import Signals
import Testing

@Suite("Signal+Then")
struct SignalThenTests {
  @Test("then ignores this signal's values and continues with the next signal")
  func continuesAfterCompletion() {
    let recorder = Recorder<String, Never>()
    Signal<Int, Never>.from([1, 2]).then { Signal.just("x") }.subscribe(recorder)
    #expect(recorder.events == [.next("x"), .completed])
  }

  @Test(
    "Semantics: then makes and subscribes to the next signal only after completion",
    .tags(.semantics))
  func nextOnlyAfterCompletion() {
    let source = Probe<Int, Never>()
    let made = Counter()
    let next = Probe<String, Never>()
    let recorder = Recorder<String, Never>()
    source.signal.then {
      made.increment()
      return next.signal
    }.subscribe(recorder)
    source.sendNext(1)
    #expect(made.value == 0)
    #expect(next.subscriptionCount == 0)
    source.sendCompleted()
    #expect(made.value == 1)
    #expect(next.subscriptionCount == 1)
    next.sendNext("y")
    #expect(recorder.values == ["y"])
  }

  @Test("Semantics: after an error, then never subscribes to the next signal", .tags(.semantics))
  func notAfterError() {
    let made = Counter()
    let recorder = Recorder<String, TestFailure>()
    Signal<Int, TestFailure>.error(TestFailure()).then {
      made.increment()
      return Signal<String, TestFailure>.just("x")
    }.subscribe(recorder)
    #expect(made.value == 0)
    #expect(recorder.events == [.error(TestFailure())])
  }
}
