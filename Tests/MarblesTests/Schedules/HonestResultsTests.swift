import MarbleTesting
import Marbles
import TestSupport
import Testing

/// An exploration's result says only what ran (issue 47.3): a body that no scheduler followed was
/// not explored, and fails saying so; a body with nothing ever ready beside something else has
/// "nothing to explore"; neither is exhaustive.
@Suite(.takesIssues) struct HonestResultsTests {
  /// Two `async let` children that wake at the same tick and race to set a flag — in a test that
  /// makes no scheduler and opens no world: it runs in real time, once.
  static func twoChildrenRace() async {
    let log = Log()
    async let first: Void = {
      try? await Task.sleep(for: .milliseconds(1))
      log.append("first")
    }()
    async let second: Void = {
      try? await Task.sleep(for: .milliseconds(1))
      log.append("second")
    }()
    _ = await (first, second)
    #expect(log.all.count == 2)
  }

  @Test func aBodyNoSchedulerFollowedIsNotExploredAndFails() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(50, seed: 1) { await Self.twoChildrenRace() }
    }
    let result = exploration
    #expect(result?.schedulesRun == 1)
    #expect(result?.isExhaustive == false)
    #expect(result?.failure?.description.hasPrefix("nothing was explored: ") == true, "\(result!)")
    #expect(issues.count == 1, "\(issues)")
    #expect(issues.first?.commentText.hasPrefix("nothing was explored: ") == true, "\(issues)")
    #expect(!(result?.description.contains("every order") ?? true))
  }

  @Test func theTraitOnABodyNoSchedulerFollowedFails() async throws {
    let test = try #require(Test.current)
    let issues = await takingIssues {
      try? await ExploringSchedulesTrait.exploringSchedules(50, seed: 1).provideScope(
        for: test, testCase: nil
      ) { await Self.twoChildrenRace() }
    }
    #expect(issues.count == 1, "\(issues)")
    #expect(issues.first?.commentText.hasPrefix("nothing was explored: ") == true, "\(issues)")
  }

  @Test func aBodyWithNothingReadyTogetherHasNothingToExplore() async {
    let exploration = await exploreSchedules(50, seed: 2) {
      let scheduler = TestScheduler()
      let log = Log()
      scheduler.task {
        try? await Task.sleep(for: .milliseconds(10))
        log.append("one")
      }
      scheduler.run()
      #expect(log.all == ["one"])
    }
    #expect(exploration.failure == nil, "\(exploration)")
    #expect(exploration.choicePoints == 0)
    #expect(!exploration.isExhaustive)
    #expect(
      exploration.description
        == "nothing to explore: no two pieces of work were ever ready at one tick (1 schedule "
        + "ran, seed 0x2)")
  }
}
