import MarbleTesting
import Marbles
import Signals
import Testing

/// The marble test and the table test of README.md, verbatim.
@Suite struct ReadmeMarbleExamplesTests {
  @Test func replayLazilySharesTheRequest() throws {
    let scheduler = TestScheduler()
    let fetch = try scheduler.cold("---r|")  // the expensive request, as a cold signal
    let shared = fetch.replayLazily()
    let early = scheduler.record(shared, subscribeAt: 1)
    let late = scheduler.record(shared, subscribeAt: 6)
    scheduler.run()
    assertMarbles(early, "----r|")
    assertMarbles(late, "------(r|)")  // replayed at once
    assertSubscriptions(fetch, "-^---!")  // one request
  }

  @Test func replayLazilyRunsTheRequestOnce() {
    assertTable(
      """
      fetch  cold  ---r|
      sub1   sub   -^--------
      sub1   gets  ----r|
      sub2   sub   ------^---
      sub2   gets  ------(r|)
      fetch  subs  -^---!
      """
    ) { $0["fetch"].replayLazily() }
  }
}
