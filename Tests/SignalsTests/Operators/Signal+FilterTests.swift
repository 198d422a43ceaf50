import Signals
import Testing

@Suite("Signal+Filter")
struct SignalFilterTests {
  @Test("filter passes on only matching values, then the terminal event")
  func filtersValues() {
    let recorder = Recorder<Int, Never>()
    Signal<Int, Never>.from([1, 2, 3, 4]).filter { $0.isMultiple(of: 2) }.subscribe(recorder)
    #expect(recorder.events == [.next(2), .next(4), .completed])
  }

  @Test("filter forwards an error")
  func forwardsError() {
    let recorder = Recorder<Int, TestFailure>()
    Signal<Int, TestFailure>.error(TestFailure()).filter { _ in false }.subscribe(recorder)
    #expect(recorder.events == [.error(TestFailure())])
  }
}
