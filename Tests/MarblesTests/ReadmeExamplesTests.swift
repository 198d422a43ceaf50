import MarbleTesting
import Marbles
import Signals
import Testing

/// The marble test and the table test of README.md, verbatim.
@Suite struct ReadmeMarbleExamplesTests {
  // snippet: first-marble-test
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
  // snippet-end

  @Test func innerSignals() throws {
    // snippet: inner-signals
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A-B-|")
    let groups = scheduler.recordHigherOrder(source.groupBy { $0.lowercased() })
    scheduler.run()
    assertMarbles(groups, "-x-y-----|", inner: ["x": "a---A---|", "y": "b---B-|"])
    // snippet-end
    withKnownIssue {
      assertMarbles(groups, "-x-y-----|", inner: ["x": "a---A---|", "y": "b--B--|"])
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        inner signal `y` sent at frame 3 differs at its frame 3
          outer     -x-y-----|
          expected     b--B--|
          actual       b---B-|
                          ^ expected next("B") at frame 3, got nothing; next("B") came at frame 4
        """
      ]
    }
  }

  // snippet: first-table
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
  // snippet-end
}
