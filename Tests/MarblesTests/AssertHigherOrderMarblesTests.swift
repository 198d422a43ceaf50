import MarbleTesting
import Marbles
import Signals
import Testing

/// Inner-signal marbles: `assertMarbles(_:_:inner:…)` and `expect(…).toBe(_:inner:…)`.
@Suite struct AssertHigherOrderMarblesTests {
  @Test func groupsHearNothingAfterTheOuterSubscriptionIsDisposed() throws {
    // groupBy on a cold source, disposed at frame 6: the groups stay recorded but hear nothing
    // more, not even a terminal event (RAC 2.5). (The README's example has the whole run.)
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A-B-|")
    let groups = scheduler.recordHigherOrder(
      source.groupBy { $0.lowercased() }, subscribeAt: 0, disposeAt: 6)
    scheduler.run()
    assertMarbles(groups, "-x-y", inner: ["x": "a---A", "y": "b"])
    assertSubscriptions(source, "^-----!")
  }

  @Test func groupsOfAHotSourceStartFromWhatTheSubscriptionSees() throws {
    // Subscribed at frame 2, groupBy never sees the first `a`: the group of `b` comes first, and
    // the group of `a` starts with `A`. Each group is recorded from the frame it is sent.
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a-b-A-B-|")
    let groups = source.groupBy { $0.lowercased() }
    scheduler.expect(groups, subscription: "--^").toBe(
      "---x-y---|", inner: ["x": "b---B-|", "y": "A---|"])
    scheduler.flush()
  }

  @Test func aSignalOfColdSignalsSubscribesEachWhenItIsSent() throws {
    let scheduler = TestScheduler()
    let first = try scheduler.cold("-1-2|", values: ["1": 1, "2": 2])
    let second = try scheduler.cold("(3|)", values: ["3": 3])
    let windows = try scheduler.cold("--a--b--|", values: ["a": first, "b": second])
    let recorder = scheduler.recordHigherOrder(windows)
    scheduler.run()
    assertMarbles(
      recorder, "--a--b--|", inner: ["a": "-1-2|", "b": "(3|)"],
      values: ["1": 1, "2": 2, "3": 3])
    assertSubscriptions(first, "--^---!")
    assertSubscriptions(second, "-----(^!)")
  }

  @Test func anInnerSignalThatDiffersIsNamedWithItsRowsUnderTheFrameItWasSent() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A-B-|")
    let groups = scheduler.recordHigherOrder(source.groupBy { $0.lowercased() })
    scheduler.run()
    let line = #line + 2
    withKnownIssue {
      assertMarbles(groups, "-x-y-----|", inner: ["x": "a---A---|", "y": "b--B--|"])
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
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

  @Test func outerEventsThatDifferAreDrawnWithTheInnerMarblesInALegend() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A-B-|")
    let groups = scheduler.recordHigherOrder(source.groupBy { $0.lowercased() })
    scheduler.run()
    withKnownIssue {
      assertMarbles(groups, "-x--y----|", inner: ["x": "a---A---|", "y": "b---B-|"])
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        marbles differ at frame 3
          expected  -x--y----|
          actual    -x-y-----|
                       ^ got unexpected next("y") at frame 3; it was expected at frame 4
          where x = a---A---|, y = b---B-|
        """
      ]
    }
  }

  @Test func anInnerMarbleThatCannotBeReadIsReportedWithItsKey() throws {
    let scheduler = TestScheduler()
    let groups = scheduler.recordHigherOrder(try scheduler.cold("-a|").groupBy { $0 })
    scheduler.run()
    withKnownIssue {
      assertMarbles(groups, "-x|", inner: ["x": "a(|"])
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        marble cannot be read: line 1, column 2: in the inner marble of `x`: '(' is never closed
          a(|
           ^
        """
      ]
    }
  }

  @Test func expectToBeWithInnerMarblesReportsAtTheExpectLine() throws {
    let scheduler = TestScheduler()
    let window = try scheduler.cold("-x|")
    let windows = try scheduler.cold("-a-a|", values: ["a": window])
    let line = #line + 1
    scheduler.expect(windows).toBe("-a-a|", inner: ["a": "--x|"])
    withKnownIssue {
      scheduler.flush()
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          """
          inner signal `a` sent at frame 1 differs at its frame 1
            outer     -a-a|
            expected   --x|
            actual     -x|
                        ^ got unexpected next("x") at frame 1; it was expected at frame 2
          """
        ]
    }
  }

  @Test func valuesAndAnErrorOfYourOwn() throws {
    enum Failure: Error, Equatable { case lost }
    let scheduler = TestScheduler()
    let source = try scheduler.cold(
      "-1-2-3#", values: ["1": 1, "2": 2, "3": 3], error: Failure.lost)
    let parity = scheduler.recordHigherOrder(source.groupBy { $0 % 2 })
    scheduler.run()
    assertMarbles(
      parity, "-o-e--#", inner: ["o": "1---3#", "e": "2--#"], values: ["1": 1, "2": 2, "3": 3],
      error: Failure.lost)
  }
}
