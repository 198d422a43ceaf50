import Dispatch
import MarbleTesting
import Marbles
import RaceBugs
import Synchronization
import TestSupport
import Testing

/// `exploreSchedules` and `.exploringSchedules`: the public face of exploring schedules.
@Suite(.takesIssues) struct FindingRacesTests {
  // snippet: finding-races-result
  @Test func theExplorationSaysWhatItRanAndWhatFailed() async throws {
    var exploration: ScheduleExploration?
    await withKnownIssue {  // the double spend fails the test, as it should
      exploration = await exploreSchedules(100, seed: 42) { await twoWithdrawals() }
    }
    let result = try #require(exploration)
    #expect(result.schedulesRun == 2)  // schedule 0 (FIFO) passed, schedule 1 failed
    #expect(result.choicePoints > 1)  // same-tick choices, in the run that had the most
    #expect(!result.isExhaustive)  // it stopped at the failure: not every order ran
    #expect(result.seed == 42)
    let failure = try #require(result.failure)
    #expect(failure.schedule == 1)
    #expect(failure.departures == 1)  // after shrinking: one choice differs from FIFO
    #expect(failure.replay.hasPrefix("mrb2-"))  // for .exploringSchedules(replay:)
    #expect(failure.issues.count == 1)  // the failed #expect, as text
  }
  // snippet-end

  /// The failing schedule's issue is reported once, where it happened (the `#expect` in
  /// ``twoWithdrawals()``) with its own expression, and the report with it; the passing schedule
  /// and the failing schedule's earlier runs report nothing, not even known issues. (On
  /// 2026-11-28's `main` every failing run was a known issue, and the failure one flattened text
  /// at the call.)
  @Test func aFailingScheduleIsReportedOnceWithItsLanesAndToken() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(100, seed: 42) { await twoWithdrawals() }
    }
    let report = """
      schedule 1 of 100 (every order within 1 departure, seed 0x2a) failed; schedule 0 (FIFO) passes
      the order that failed, 1 departure from FIFO (marked *):
        job          1   2   3   4   5   6   7   8   9  10  11  12  13  14  15  16  17  18  19  20
        tick         0   0   0   0   0   0   0   0   0   0   0   0   0   0   0   0   0   0   0   0
        test             ●
        first                    ●               ●               ●           ●
        second              ●*               ●               ●           ●           ●       ●
        actor jobs   ●               ●   ●           ●   ●           ●           ●       ●       ●
      replay it: @Test(.exploringSchedules(replay: "mrb2-c-alfk-0.t2.2.5unw")), or \
      exploreSchedules(replay: "mrb2-c-alfk-0.t2.2.5unw")
      """
    #expect(issues.count == 1)
    #expect(issues.first?.sourceLocation?.fileID == "MarblesTests/RacyApp.swift")
    #expect(issues.first?.sourceLocation?.line == 28)
    #expect(issues.first.map { "\($0.kind)" } == "Expectation failed: await account.balance >= 0")
    #expect(issues.first?.commentText == report)
    // The Finding races article shows this report as Swift Testing prints it.
    let shown = ArticleReports.report(
      in: "Sources/Marbles/Marbles.docc/FindingRaces.md",
      startingWith: "✘ Test twoWithdrawalsNeverOverdraw() recorded an issue at")
    let indented = report.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(shown == "↳ " + indented.joined(separator: "\n  "))
    #expect(issues.first?.isFailure == true)
    #expect(exploration?.schedulesRun == 2)
    #expect(exploration?.failure?.schedule == 1)
    #expect(exploration?.failure?.departures == 1)
    #expect(exploration?.failure?.replay == "mrb2-c-alfk-0.t2.2.5unw")
    #expect(
      exploration?.failure?.issues == [
        "MarblesTests/RacyApp.swift:28: Expectation failed: await account.balance >= 0"
      ])
    // The returned failure's description still holds the issue, for code that reads it.
    #expect(
      exploration?.failure?.description.contains(
        "\n  MarblesTests/RacyApp.swift:28: Expectation failed: await account.balance "
          + ">= 0\n") == true)
  }

  /// Each issue of the failing schedule where it happened — an `#expect`, then a `#require` that
  /// stops the body — the first with the report and the second pointing to it; nothing else.
  @Test func everyIssueOfTheFailingScheduleIsReportedWhereItHappened() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(100, seed: 42) {
        let account = Account()
        Self.runTwoWithdrawals { await account.withdraw($0) }
        let balance = await account.balance
        #expect(balance == 20, "one withdrawal is paid")
        try #require(balance >= 0)
      }
    }
    #expect(issues.count == 2, "\(issues)")
    #expect(issues.map { $0.sourceLocation?.fileID } == Array(repeating: #fileID, count: 2))
    #expect(issues.map { "\($0.kind)" }.first == "Expectation failed: (balance → -60) == 20")
    #expect(issues.map { "\($0.kind)" }.last == "Expectation failed: (balance → -60) >= 0")
    #expect(issues.first?.comments.first?.rawValue == "one withdrawal is paid")
    #expect(issues.first?.comments.last?.rawValue.hasPrefix("schedule 1 of 100") == true)
    #expect(
      issues.last?.commentText
        == "(in the schedule that failed; its report is with this test's first issue)")
    #expect(exploration?.failure?.issues.count == 2)
  }

  /// The trait reports the same way: the issue at its `#expect`, with the report.
  @Test func theTraitReportsTheIssueWhereItHappened() async throws {
    let test = try #require(Test.current)
    let issues = await takingIssues {
      try? await ExploringSchedulesTrait.exploringSchedules(100, seed: 42).provideScope(
        for: test, testCase: nil
      ) { await twoWithdrawals() }
    }
    #expect(issues.count == 1, "\(issues)")
    #expect(issues.first?.sourceLocation?.line == 28)
    #expect(issues.first?.commentText.hasPrefix("schedule 1 of 100") == true)
  }

  /// What the body records that does not fail it — a warning, an issue its own `withKnownIssue`
  /// takes — fails no schedule and is reported once, from schedule 0. (On 2026-11-28's `main` a
  /// warning failed schedule 0.)
  @Test func aWarningOrAKnownIssueFailsNoScheduleAndIsReportedOnce() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(20, seed: 3) {
        let scheduler = TestScheduler()
        let log = Log()
        scheduler.task { log.append("a") }
        scheduler.task { log.append("b") }
        scheduler.run()
        Issue.record("a note", severity: .warning)
        withKnownIssue("a known bug elsewhere") { Issue.record("the known bug") }
      }
    }
    #expect(exploration?.failure == nil, "\(exploration.map { "\($0)" } ?? "")")
    #expect(
      issues.map(\.commentText).sorted() == ["a note", "the known bug"])
    #expect(issues.allSatisfy { !$0.isFailure })
  }

  static let doubleSpend = "mrb2-c-alfk-0.t2.2.5unw"

  @Test func itsTokenReplaysTheFailureOneTimeOutOfOne() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(replay: Self.doubleSpend) { await twoWithdrawals() }
    }
    let messages = issues.map(\.commentText)
    #expect(exploration?.schedulesRun == 1)
    #expect(exploration?.failure?.departures == 1)
    #expect(
      messages.first?.hasPrefix(
        "the replayed schedule failed, following its token choice for choice\n") == true,
      "\(messages)")
  }

  /// What replays are checked against, each the first place a run differs from its token. On
  /// 2026-11-28's `main` a token held only how many steps each departure had to choose from: a
  /// replay on changed code followed another order silently, a forged token was accepted, and a
  /// token whose choices were never reached "passed".
  @Test(arguments: [
    // Changed code: at the first choice the test now offers two steps, not three.
    (
      "mrb2-c-alfk-0.t2.3.5unw",
      "the schedule diverged at choice 1: the token took task 2 there, of 3 steps that could go "
        + "first; this run offered task 1, task 2"
    ),
    // Changed code: the same steps, but another task went first there.
    (
      "mrb2-c-alfk-0.t1.2.5unw",
      "the schedule diverged at choice 1: the steps offered there, or the one taken, are not the "
        + "token's"
    ),
    // A forged token: a departure at choice 1,295, where the test has 12.
    (
      "mrb2-zz-0-0.t2.2.5unw-zy.t1.2.0",
      "the schedule diverged at choice 13: the run ended after 12 choice points, before the "
        + "token's departure at choice 1295"
    ),
    // The choices before the departure are not the ones recorded.
    (
      "mrb2-c-alfk-0.t2.2.1",
      "the schedule diverged at choice 1: the steps offered there, or the one taken, are not the "
        + "token's"
    ),
    // The choices between two departures are not the ones recorded.
    (
      "mrb2-c-alfk-0.t2.2.5unw-5.t1.2.1",
      "the schedule diverged at choice 6: the steps offered at one of choices 2 to 6, or the "
        + "ones taken, are not the token's"
    ),
  ])
  func aReplayThatDivergesSaysWhere(_ token: String, _ expected: String) async {
    let issues = await takingIssues {
      await exploreSchedules(replay: token) { await twoWithdrawals() }
    }
    let messages = issues.map(\.commentText)
    let report = messages.joined(separator: "\n")
    #expect(report.contains(expected), "\(report)")
    #expect(report.contains("the code or the test changed since it was recorded"), "\(report)")
  }

  /// A shorter run: the test now starts one task, and the token's choices are never reached.
  @Test func aReplayOfARunThatEndsBeforeItsChoicesDivergesAndFails() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(replay: Self.doubleSpend) {
        let scheduler = TestScheduler()
        let account = Account()
        scheduler.task(name: "first") { await account.withdraw(80) }
        scheduler.run()
        #expect(await account.balance == 20)
      }
    }
    let messages = issues.map(\.commentText)
    #expect(exploration?.failure != nil)
    #expect(
      messages == [
        "the replay of \(Self.doubleSpend) passed, but not under its schedule: the schedule "
          + "diverged at choice 1: the run ended after 0 choice points, before the token's "
          + "departure at choice 1 — the code or the test changed since it was recorded; explore "
          + "again to try its orders"
      ])
  }

  /// The account, fixed: the balance is taken before the hop.
  actor FixedAccount {
    private(set) var balance = 100
    func withdraw(_ amount: Int) async {
      guard balance >= amount else { return }
      balance -= amount
      await Account.audit()
    }
  }

  /// ``twoWithdrawals()``'s two tasks, each withdrawing 80 with `withdraw`, run on a new
  /// scheduler.
  static func runTwoWithdrawals(_ withdraw: @escaping @Sendable (Int) async -> Void) {
    let scheduler = TestScheduler()
    scheduler.task(name: "first") { await withdraw(80) }
    scheduler.task(name: "second") {
      await Task.yield()
      await Task.yield()
      await withdraw(80)
    }
    scheduler.run()
  }

  /// ``twoWithdrawals()`` from the fixed account.
  static func twoWithdrawalsFromTheFixedAccount() async {
    let account = FixedAccount()
    runTwoWithdrawals { await account.withdraw($0) }
    #expect(await account.balance == 20)
  }

  /// The failure's token kept in the test after the fix: it follows its schedule, and passes.
  @Test(.exploringSchedules(replay: FindingRacesTests.doubleSpend))
  func aFixedBugsTokenStaysAsARegressionTest() async {
    await Self.twoWithdrawalsFromTheFixedAccount()
  }

  @Test func aReplayThatFollowsItsTokenAndPassesPasses() async {
    let exploration = await exploreSchedules(replay: Self.doubleSpend) {
      await Self.twoWithdrawalsFromTheFixedAccount()
    }
    #expect(exploration.failure == nil)
    // The fix changed what follows the departure: the second withdrawal now stops at its guard.
    #expect(
      exploration.description
        == "the replay of \(Self.doubleSpend) followed its schedule through its last departure, "
        + "at choice 1 (the choices after it differ from the recorded run's), and passed")
  }

  @Test func aReplayOfTheSameCodePassingIsFollowedChoiceForChoice() async {
    // The token of a passing schedule of the account's test that departs from FIFO: the same code
    // replays it to the end.
    var token = ""
    /// Two withdrawals the fixed account can pay both of, in any order.
    func twoSmallWithdrawals() async {
      let scheduler = TestScheduler()
      let account = FixedAccount()
      scheduler.task(name: "first") { await account.withdraw(30) }
      scheduler.task(name: "second") { await account.withdraw(30) }
      scheduler.run()
      #expect(await account.balance == 40)
    }
    let found = await exploreSchedules(2, seed: 1) {
      await twoSmallWithdrawals()
      if let run = ScheduleRun.current, !run.token.departures.isEmpty {
        token = "\(run.token)"
      }
    }
    #expect(found.failure == nil)
    guard !token.isEmpty else {
      Issue.record("no schedule departed from FIFO: \(found)")
      return
    }
    let replayed = await exploreSchedules(replay: token) { await twoSmallWithdrawals() }
    #expect(
      replayed.description
        == "the replay of \(token) followed its schedule choice for choice, and passed")
  }

  @Test func aTokenOfAnEarlierMarblesIsRefused() async {
    let issues = await takingIssues {
      await exploreSchedules(replay: "mrb1-c-0.1.2") {}
    }
    let messages = issues.map(\.commentText)
    #expect(
      messages == [
        "\"mrb1-c-0.1.2\" is not a replay token (it is a token of an earlier Marbles, which did "
          + "not record who went first at each choice: explore again for a token that replays): "
          + "nothing ran"
      ])
  }

  /// An editor whose save reads the draft, hops to the store, then writes it: a tap that discards
  /// the draft while the save is in flight does not stop the write.
  final class Editor: Sendable {
    private let state = Mutex((draft: String?("hello"), discardedWhileSaving: false, saving: false))
    actor Store {
      private(set) var written: [String] = []
      func write(_ text: String) { written.append(text) }
    }
    let store = Store()

    func save() async {
      guard
        let draft = state.withLock({ state -> String? in
          state.saving = true
          return state.draft
        })
      else { return }
      await store.write(draft)
      state.withLock { $0.saving = false }
    }

    func discard() {
      state.withLock { state in
        if state.saving { state.discardedWhileSaving = true }
        state.draft = nil
      }
    }

    var discardedWhileSaving: Bool { state.withLock { $0.discardedWhileSaving } }
  }

  /// The tap written as a scheduler action at the tick the save runs: it races the save task's
  /// jobs, and the order where it comes between them is found. (On 2026-11-28's `main` the
  /// scheduler's actions ran only after every ready job of their tick: this exploration said
  /// every schedule passes; written as a task, the tap was found at schedule 43.)
  @Test func aTapScheduledAsAnActionRacesATasksJobs() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(100, seed: 5) {
        let scheduler = TestScheduler()
        let editor = Editor()
        scheduler.task(name: "save") { await editor.save() }
        scheduler.schedule(at: 0) { editor.discard() }  // the tap
        scheduler.run()
        let written = await editor.store.written
        #expect(!(editor.discardedWhileSaving && !written.isEmpty), "a discarded draft was saved")
      }
    }
    let messages = issues.map(\.commentText)
    #expect(exploration?.failure != nil)
    #expect(exploration?.failure?.departures == 1)
    let report = messages.joined(separator: "\n")
    #expect(report.contains("a discarded draft was saved"), "\(report)")
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
    let issues = await takingIssues {
      await exploreSchedules(10, seed: 1) {
        let scheduler = TestScheduler()
        let suspended = RaceBugs.PassedFlag()
        let called = RaceBugs.PassedFlag()
        scheduler.task(name: "fetch") {
          await withCheckedContinuation { continuation in
            // A real callback, once the task waits for it, on a thread of its own: a
            // `DispatchQueue.global()` worker waited past the backstop on a loaded machine.
            Platform.startThread {
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
    }
    // The failure carries the report. (A warning of the first run may come before it: the
    // scheduler says what driven work did outside virtual time when nothing is stuck.)
    let messages = issues.filter { $0.severity == .error }.map(\.commentText)
    #expect(
      messages.first?.contains(
        "driven work did this outside virtual time, where its order was not explored: a driven "
          + "task was resumed from outside virtual time") == true, "\(messages)")
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
