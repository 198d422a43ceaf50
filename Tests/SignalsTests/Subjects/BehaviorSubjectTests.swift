import Signals
import Testing

@Suite("BehaviorSubject")
struct BehaviorSubjectTests {
  @Test(
    "Semantics: a subscriber gets the current value before subscribe returns, then live values",
    .tags(.semantics))
  func currentValueThenLive() {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    let first = Recorder<Int, Never>()
    subject.subscribe(first)
    #expect(first.values == [0])
    subject.sendNext(1)
    let second = Recorder<Int, Never>()
    subject.subscribe(second)
    #expect(second.values == [1])
    subject.sendNext(2)
    #expect(first.values == [0, 1, 2])
    #expect(second.values == [1, 2])
  }

  @Test("value is the initial value, then the latest sent")
  func value() {
    let subject = BehaviorSubject<String, Never>(value: "a")
    #expect(subject.value == "a")
    subject.sendNext("b")
    #expect(subject.value == "b")
    subject.sendCompleted()
    subject.sendNext("c")
    #expect(subject.value == "b")
  }

  @Test(
    "Semantics: after termination a newcomer gets the last value, then the terminal",
    .tags(.semantics))
  func afterTerminationLastValueThenTerminal() {
    let completed = BehaviorSubject<Int, TestFailure>(value: 0)
    completed.sendNext(1)
    completed.sendCompleted()
    let first = Recorder<Int, TestFailure>()
    completed.subscribe(first)
    #expect(first.events == [.next(1), .completed])

    let failed = BehaviorSubject<Int, TestFailure>(value: 7)
    failed.sendError(TestFailure())
    let second = Recorder<Int, TestFailure>()
    failed.subscribe(second)
    #expect(second.events == [.next(7), .error(TestFailure())])
  }

  @Test("Disposing inside the current value's callback stops the subscription")
  func disposeInsideCurrentValue() {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    let recorder = Recorder<Int, Never> { _, recorder in recorder.disposeSubscription() }
    subject.subscribe(recorder)
    subject.sendNext(1)
    #expect(recorder.events == [.next(0)])
  }

  @Test(
    "A completion sent from inside the current value's callback arrives after it",
    .tags(.reentrancy))
  func reentrantCompletionInsideCurrentValue() {
    let subject = BehaviorSubject<Int, Never>(value: 0)
    let recorder = Recorder<Int, Never> { event, _ in
      if event == .next(0) { subject.sendCompleted() }
    }
    subject.subscribe(recorder)
    #expect(recorder.events == [.next(0), .completed])
  }
}
