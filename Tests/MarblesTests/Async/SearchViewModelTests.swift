import MarbleTesting
import Marbles
import Observation
import Signals
import TestSupport
import Testing

/// A `@MainActor @Observable` view model that debounces on the clock, tested as a newcomer writes
/// it: no `Task.yield()`, no real sleeps, no `scheduler.task`.
@MainActor @Suite struct SearchViewModelTests {
  // snippet: async-view-model
  @Test func theSearchHappensExactlyThreeHundredMillisecondsAfterTheLastKeystroke() {
    let scheduler = TestScheduler()
    let model = SearchViewModel(clock: scheduler.clock, api: FakeSearchAPI(clock: scheduler.clock))
    model.query = "s"
    scheduler.advance(by: .milliseconds(100))
    model.query = "sw"
    scheduler.advance(by: .milliseconds(299))
    #expect(model.searchCount == 0, "nothing at 299 ms after the last keystroke")
    scheduler.advance(by: .milliseconds(1))
    #expect(model.searchCount == 1, "searched at 300 ms")
    #expect(model.results == [])
    scheduler.advance(by: .milliseconds(99))
    #expect(model.results == [])
    scheduler.advance(by: .milliseconds(1))
    #expect(model.results == ["swift", "swiftui", "sweet"])
    #expect(scheduler.now == 500)
  }
  // snippet-end

  // snippet: async-observations
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test func theObservationsOfItsResultsAreExactMarbles() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let model = SearchViewModel(clock: scheduler.clock, api: FakeSearchAPI(clock: scheduler.clock))
    let results = scheduler.record(Observations { model.results.joined(separator: ",") })
    scheduler.schedule(at: 1) { MainActor.assumeIsolated { model.query = "m" } }
    scheduler.schedule(at: 2) { MainActor.assumeIsolated { model.query = "ma" } }
    scheduler.schedule(at: 8) { MainActor.assumeIsolated { model.query = "sw" } }
    scheduler.run()
    // The first value at the subscription; "ma" searched at 2 + 3 and answered at 6; "sw" at 12.
    assertMarbles(
      results, "e-----a-----b",
      values: ["e": "", "a": "marbles,macros", "b": "swift,swiftui,sweet"])
  }
  // snippet-end
}
