import Foundation
import MarbleTesting
import Marbles
import TestSupport
import Testing

/// An exploration's result says only what ran (issue 47.3): a body whose work ran outside virtual
/// time was not explored there, and fails saying so; a body with nothing ever ready beside
/// something else has "nothing to explore"; neither is exhaustive.
@Suite(.takesIssues) struct HonestResultsTests {
  /// Two `async let` children that wake at the same tick and race to set a flag — in a test that
  /// makes no scheduler and opens no world: it runs in real time, once.
  static func twoChildrenRace() async {
    #expect(await twoSleepingChildrenAppend(after: .milliseconds(1)).count == 2)
  }

  /// A body whose task is resumed from a thread of its own: that resumption's order is the
  /// kernel's, not a schedule's.
  static func resumedFromAThreadOfItsOwn() async {
    let value = await Task {
      await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        // NB: after a moment, so that the task has suspended (a resumption before it does is no
        // resumption from outside).
        Thread.detachNewThread {
          Thread.sleep(forTimeInterval: 0.05)
          continuation.resume(returning: 1)
        }
      }
    }.value
    #expect(value == 1)
  }

  /// On 2026-11-28's `main` a body that only awaits ran once in real time and was reported as
  /// "nothing was explored"; now it runs in a world per schedule (`WorldExplorationTests`), and
  /// only work outside virtual time is named, as a failure.
  @Test func aBodyWhoseWorkRanOutsideVirtualTimeFailsSayingSo() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(5, seed: 1) { await Self.resumedFromAThreadOfItsOwn() }
    }
    let result = exploration
    #expect(result?.isExhaustive == false)
    let prefix = "part of the body ran outside virtual time, where no schedule chose its order"
    #expect(result?.failure?.description.hasPrefix(prefix) == true, "\(result!)")
    #expect(result?.failure?.description.contains("resumed from outside virtual time") == true)
    #expect(issues.count == 1, "\(issues)")
    #expect(issues.first?.commentText.hasPrefix(prefix) == true, "\(issues)")
    #expect(!(result?.description.contains("every order") ?? true))
  }

  @Test func theTraitOnABodyWhoseWorkRanOutsideVirtualTimeFails() async throws {
    let test = try #require(Test.current)
    let issues = await takingIssues {
      try? await ExploringSchedulesTrait.exploringSchedules(5, seed: 1).provideScope(
        for: test, testCase: nil
      ) { await Self.resumedFromAThreadOfItsOwn() }
    }
    #expect(issues.count == 1, "\(issues)")
    #expect(
      issues.first?.commentText.hasPrefix("part of the body ran outside virtual time") == true,
      "\(issues)")
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
