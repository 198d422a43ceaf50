import MarbleTesting
import Signals
import Testing

/// A scheduler made outside any test (a command-line tool, a benchmark, a detached task) opens a
/// world of its own, which drives the tasks its work starts as a test's does.
@Suite struct OutsideTestsTests {
  /// `record(sequence)` iterates in a task the scheduler's action starts. On 2026-11-27's `main`,
  /// outside a test, that task ran late or not at all: nothing was recorded.
  @Test func recordingAnAsyncSequenceOutsideATest() async throws {
    let events = await Task.detached {
      let scheduler = TestScheduler()
      let hot = try! scheduler.hot("-a-b-c-|")
      let recorder = scheduler.record(hot.values)
      scheduler.run()
      return recorder.events
    }.value
    #expect(events == [.next(1, "a"), .next(3, "b"), .next(5, "c"), .completed(7)])
  }
}
