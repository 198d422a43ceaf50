import Signals
import Testing

@Suite("Signal+IgnoreValues")
struct SignalIgnoreValuesTests {
  @Test("ignoreValues drops values and keeps completion")
  func keepsCompletion() {
    let recorder = Recorder<Int, TestFailure>()
    Signal<Int, TestFailure>.from([1, 2]).ignoreValues().subscribe(recorder)
    #expect(recorder.events == [.completed])
  }

  @Test("ignoreValues keeps an error")
  func keepsError() {
    let subject = Subject<Int, TestFailure>()
    let recorder = Recorder<Int, TestFailure>()
    subject.ignoreValues().subscribe(recorder)
    subject.sendNext(1)
    subject.sendError(TestFailure())
    #expect(recorder.events == [.error(TestFailure())])
  }
}
