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
  @MainActor @Test func theSearchHappensExactlyThreeHundredMillisecondsAfterTheLastKeystroke() {
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
}
