import MarbleTesting
import Marbles
import SearchExample
import Signals
import Testing

/// The search model, tested in virtual time with an expectation table: one frame is 100 ms, the
/// model waits 300 ms of quiet and a fetch takes 200 ms.
@Suite struct SearchModelTests {
  static let catalog = ["swift", "swift testing", "swiftui", "switch", "rust"]

  /// A model on `scheduler`'s clock whose fake fetch takes two frames.
  func model(_ scheduler: TestScheduler) -> SearchModel<TestClock> {
    let clock = scheduler.clock
    return SearchModel(quietTime: .milliseconds(300), clock: clock) { query in
      try await clock.sleep(for: .milliseconds(200))
      return Self.catalog.filter { $0.hasPrefix(query) }
    }
  }

  static let values: [Character: String] = [
    "a": "s", "b": "sw", "c": "swi", "d": "swift", "e": "", "x": "swi: 4 titles",
    "y": "swift: 3 titles",
  ]

  @Test func onlyTheQueriesTheUserPausedOnAreFetched() {
    assertTable(
      """
      query    hot   -a-b-c------d---|
      results  gets  ----------x------(y|)
      query    subs  ^---------------!
      """, values: Self.values, tick: .milliseconds(100)
    ) { sources in
      Signal(model(sources.scheduler).results(for: sources["query"].values))
    }
  }

  @Test func anEmptyOrRepeatedQueryIsNotFetched() {
    assertTable(
      """
      query    hot   -c-----e-----c-----d-----|
      results  gets  ------x-----------------y|
      """, values: Self.values, tick: .milliseconds(100)
    ) { sources in
      Signal(model(sources.scheduler).results(for: sources["query"].values))
    }
  }

  @Test func aFailedFetchEndsTheResults() {
    assertTable(
      """
      query    hot   -c--------d-----|
      results  gets  ------x--------#
      """, values: Self.values, tick: .milliseconds(100)
    ) { sources in
      let clock = sources.scheduler.clock
      let failing = SearchModel(quietTime: .milliseconds(300), clock: clock) { query in
        try await clock.sleep(for: .milliseconds(200))
        guard query != "swift" else { throw TestError() }
        return Self.catalog.filter { $0.hasPrefix(query) }
      }
      return Signal(failing.results(for: sources["query"].values))
    }
  }
}
