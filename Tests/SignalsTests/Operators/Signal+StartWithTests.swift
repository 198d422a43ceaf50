import Signals
import Testing

@Suite("Signal+StartWith")
struct SignalStartWithTests {
  @Test("startWith sends its value at subscription, then the source's events")
  func prepends() {
    let subject = Subject<String, Never>()
    let recorder = Recorder<String, Never>()
    subject.startWith("x").subscribe(recorder)
    #expect(recorder.values == ["x"])
    subject.sendNext("a")
    subject.sendCompleted()
    #expect(recorder.events == [.next("x"), .next("a"), .completed])
  }

  @Test("startWith before an error sends the value, then the error")
  func beforeError() {
    let recorder = Recorder<String, TestFailure>()
    Signal<String, TestFailure>.error(TestFailure()).startWith("x").subscribe(recorder)
    #expect(recorder.events == [.next("x"), .error(TestFailure())])
  }

  @Test("startWith with several values sends them in order, then the source's events")
  func prependsSeveral() {
    let recorder = Recorder<String, Never>()
    Signal<String, Never>.just("a").startWith("x", "y", "z").subscribe(recorder)
    #expect(recorder.events == [.next("x"), .next("y"), .next("z"), .next("a"), .completed])
  }

  @Test("startWith with no values is the source")
  func prependsNothing() {
    let recorder = Recorder<String, Never>()
    Signal<String, Never>.just("a").startWith().subscribe(recorder)
    #expect(recorder.events == [.next("a"), .completed])
  }
}
