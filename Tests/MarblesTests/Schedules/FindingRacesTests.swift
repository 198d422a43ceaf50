import Dispatch
import MarbleTesting
import Marbles
import RaceBugs
import Synchronization
import TestSupport
import Testing

/// `exploreSchedules` and `.exploringSchedules`: the public face of exploring schedules.
@Suite struct FindingRacesTests {
  // snippet: finding-races-account
  /// Two withdrawals from one account, each checking the balance before a hop and taking the
  /// money after it: a double spend, when the second checks before the first has taken.
  actor Account {
    private(set) var balance = 100
    func withdraw(_ amount: Int) async {
      guard balance >= amount else { return }
      await Self.audit()
      balance -= amount
    }
    nonisolated static func audit() async { await Task.yield() }
  }

  static func twoWithdrawals() async {
    let scheduler = TestScheduler()
    let account = Account()
    scheduler.task(name: "first") { await account.withdraw(80) }
    scheduler.task(name: "second") {
      await Task.yield()  // validates the request first
      await Task.yield()
      await account.withdraw(80)
    }
    scheduler.run()
    #expect(await account.balance >= 0)
  }
  // snippet-end

  @Test func aFailingScheduleIsReportedOnceWithItsLanesAndToken() async {
    let messages = Mutex<[String]>([])
    var exploration: ScheduleExploration?
    await withKnownIssue {
      exploration = await exploreSchedules(100, seed: 42) { await Self.twoWithdrawals() }
    } matching: { issue in
      messages.withLock { $0 += issue.comments.map(\.rawValue) }
      return true
    }
    #expect(
      messages.withLock { $0 } == [
        """
        schedule 1 of 100 (every order within 1 departure, seed 0x2a) failed; schedule 0 (FIFO) passes
          MarblesTests/FindingRacesTests.swift:34: Expectation failed: await account.balance >= 0
        the order that failed, 1 departure from FIFO (marked *):
          job          1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17
          tick         0   0   0   0   0   0   0   0   0   0   0   0   0   0   0   0   0
          first            ●               ●               ●           ●
          second      ●*               ●               ●           ●           ●       ●
          actor jobs           ●   ●           ●   ●           ●           ●       ●
        replay it: @Test(.exploringSchedules(replay: "mrb1-c-0.1.2")), or \
        exploreSchedules(replay: "mrb1-c-0.1.2")
        """
      ])
    #expect(exploration?.schedulesRun == 2)
    #expect(exploration?.failure?.schedule == 1)
    #expect(exploration?.failure?.departures == 1)
    #expect(exploration?.failure?.replay == "mrb1-c-0.1.2")
    #expect(
      exploration?.failure?.issues == [
        "MarblesTests/FindingRacesTests.swift:34: Expectation failed: await account.balance >= 0"
      ])
  }

  @Test func itsTokenReplaysTheFailureOneTimeOutOfOne() async {
    var exploration: ScheduleExploration?
    await withKnownIssue {
      exploration = await exploreSchedules(replay: "mrb1-c-0.1.2") { await Self.twoWithdrawals() }
    }
    #expect(exploration?.schedulesRun == 1)
    #expect(exploration?.failure?.departures == 1)
  }

  @Test func aChangedTestReplayedSaysWhereItDiverged() async {
    let messages = Mutex<[String]>([])
    await withKnownIssue {
      // Recorded where three jobs could go first; this test has two there.
      await exploreSchedules(replay: "mrb1-c-0.2.3") { await Self.twoWithdrawals() }
    } matching: { issue in
      messages.withLock { $0 += issue.comments.map(\.rawValue) }
      return true
    }
    #expect(
      messages.withLock { $0 }.first?.contains(
        "the schedule diverged at choice 1: the code or the test changed since it was recorded")
        == true, "\(messages.withLock { $0 })")
  }

  @Test func aReplayThatPassesSaysSo() async {
    let messages = Mutex<[String]>([])
    await withKnownIssue {
      await exploreSchedules(replay: "mrb1-3") {}
    } matching: { issue in
      messages.withLock { $0 += issue.comments.map(\.rawValue) }
      return true
    }
    #expect(
      messages.withLock { $0 } == [
        "the replay of mrb1-3 passed: the failure it recorded did not happen again (the code or "
          + "the test changed, or the failure depended on something outside virtual time)"
      ])
  }

  @Test func codeThatIsRightInEveryOrderPasses() async {
    let exploration = await exploreSchedules(50, seed: 7) {
      let scheduler = TestScheduler()
      let account = Account()
      scheduler.task { await account.withdraw(30) }
      scheduler.task { await account.withdraw(30) }
      scheduler.run()
      #expect(await account.balance == 40)
    }
    #expect(exploration.failure == nil)
    // Every one-departure schedule fit in the 50 (the two-departure level did not).
    #expect(
      exploration.description
        == "every schedule within 1 departure from FIFO passes (50 schedules in all, seed 0x7)")
    #expect(!exploration.isExhaustive)
  }

  @Test func workOutsideVirtualTimeIsNamedInTheReport() async {
    let messages = Mutex<[String]>([])
    await withKnownIssue {
      await exploreSchedules(10, seed: 1) {
        let scheduler = TestScheduler()
        let suspended = RaceBugs.PassedFlag()
        let called = RaceBugs.PassedFlag()
        scheduler.task(name: "fetch") {
          await withCheckedContinuation { continuation in
            DispatchQueue.global().async {  // a real callback, once the task waits for it
              while !suspended.isSet { blockForRealTime(microseconds: 1_000) }
              continuation.resume()
              called.set()
            }
          }
        }
        scheduler.run()  // the task is suspended when this returns
        suspended.set()
        // The callback comes, in real time (a backstop of 10 s, not a timing).
        for _ in 0..<1_000 where !called.isSet { blockForRealTime(microseconds: 10_000) }
        scheduler.run()
        Issue.record("the test fails in every order")
      }
    } matching: { issue in
      messages.withLock { $0 += issue.comments.map(\.rawValue) }
      return true
    }
    #expect(
      messages.withLock { $0 }.first?.contains(
        "driven work did this outside virtual time, where its order was not explored: a driven "
          + "task was resumed from outside virtual time") == true, "\(messages.withLock { $0 })")
  }

  @Test func aSmallTreeIsRunWholeAndSaysSo() async {
    let exploration = await exploreSchedules(100, seed: 9) {
      let scheduler = TestScheduler()
      let log = Log()
      scheduler.task { log.append("a") }
      scheduler.task { log.append("b") }
      scheduler.run()
      #expect(log.all.sorted() == ["a", "b"])
    }
    // Two tasks at one tick: two orders, and the exploration stops once both ran. (On
    // 2026-11-28's `main` it ran the body 100 times and called that exhaustive within 2
    // departures.)
    #expect(exploration.isExhaustive)
    #expect(exploration.failure == nil)
    #expect(exploration.schedulesRun == 2)
    #expect(
      exploration.description
        == "every schedule passes: all 2 of them ran, every order of the same tick's work that "
        + "exploring can choose (seed 0x9)")
  }

  // MARK: The trait, on sync and async tests, on the main actor or not

  static func rightInEveryOrder() -> Bool {
    let scheduler = TestScheduler()
    let log = Log()
    for index in 0..<3 { Task { log.append("\(index)") } }
    scheduler.run()
    return log.all.sorted() == ["0", "1", "2"]
  }

  @Test(.exploringSchedules(30, seed: 1)) func theTraitOnASyncTest() {
    #expect(Self.rightInEveryOrder())
  }

  @Test(.exploringSchedules(30, seed: 2)) func theTraitOnAnAsyncTest() async {
    #expect(Self.rightInEveryOrder())
  }

  @MainActor @Test(.exploringSchedules(30, seed: 3)) func theTraitOnTheMainActor() async {
    #expect(Self.rightInEveryOrder())
  }
}
