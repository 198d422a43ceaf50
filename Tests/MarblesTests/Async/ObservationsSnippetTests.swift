// The app code (SearchViewModel) comes from TestSupport; the listing is the rest, imports
// included.
// swift-format-ignore: OrderedImports
import MarbleTesting
import Marbles
import Testing
import TestSupport

// snippet: async-observations
import Observation

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor @Test func theObservationsOfItsResultsAreExactMarbles() {
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
