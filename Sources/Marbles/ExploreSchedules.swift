import MarbleTesting
import Synchronization
import Testing

/// Runs `body` once per schedule — schedule 0 in Marbles' usual first-in-first-out order, then
/// orders of the same tick's work chosen from `seed` — and stops at the first schedule that fails;
/// the failing order is shrunk towards FIFO, drawn as lanes, and reported once with the token that
/// replays it: in Swift Testing each issue of the failing schedule where it happened, the first
/// with the report; in XCTest one failure at the call.
///
/// Each run is fresh, in a world of its own: every task `body` starts, every sleep and every await
/// is the world's, so a body that only awaits the code under test is explored as it is written
/// (inside a `.virtualTime` test, each run gets a scheduler of its own on that test's timeline). A
/// body may also make its own scheduler and drive it. Work that runs outside virtual time (a task
/// resumed from a thread of its own) was ordered by no schedule: the exploration fails, saying
/// so. A schedule fails when `body`
/// throws or records an issue (Swift Testing's `#expect`, `#require`, `Issue.record`; Marbles'
/// assertions, in XCTest too); the issues of schedules that passed are not reported, nor are known
/// issues left by them. A warning of the body, or an issue a `withKnownIssue` inside it takes, fails
/// no schedule and is reported once, from schedule 0.
///
/// ```swift
/// let exploration = await exploreSchedules(200, seed: 42) {
///   let account = Account(balance: 100)
///   async let first: Void = account.withdraw(80)
///   async let second: Void = account.withdraw(80)
///   _ = await (first, second)
///   #expect(await account.balance >= 0)
/// }
/// ```
///
/// A schedule reorders only what the Swift runtime may: jobs of different tasks ready at the same
/// tick (which task reaches an actor first, the test's own jobs), the main actor's first job,
/// sleepers' wake-ups and the scheduler's first action due then against them; jobs queued for the main actor keep their order, as do a task's own steps and the
/// scheduler's actions among themselves (marbles mean what they mean). A replay follows its
/// token's departures by who went first, says where a run diverges from them, and passes when it
/// follows them and the test passes — a token kept after the fix is a regression test.
/// `MARBLES_SCHEDULES=N` raises `count` to at least `N`; `MARBLES_SCHEDULE_SEED=S` is the seed
/// when none is given (else a fresh one, printed in every failure).
///
/// - Parameters:
///   - count: How many schedules to run, schedule 0 included.
///   - seed: Where the schedules come from; `nil` for `MARBLES_SCHEDULE_SEED` or a fresh one.
///   - replay: A failure's token: runs its schedule once instead.
///   - isolation: The caller's isolation (filled in for you): `body` runs there — a
///     `@MainActor` test's body on the main actor.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - body: The test, run once per schedule.
/// - Returns: What the exploration found.
@discardableResult
public func exploreSchedules(
  _ count: Int = 100, seed: UInt64? = nil, replay: String? = nil,
  isolation: isolated (any Actor)? = #isolation,
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ body: () async throws -> Void
) async -> ScheduleExploration {
  let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
  let exploration = await ScheduleExploring.explore(
    count, seed: seed, replay: replay, reportingAt: site.sourceLocation, body)
  if let failure = exploration.failure {
    if !failure.isReported { site.report(failure.description) }
    if let picture = failure.picture { site.attach(picture, showing: "schedule lanes") }
  }
  return exploration
}

/// The exploration behind ``exploreSchedules(_:seed:replay:isolation:fileID:filePath:line:column:_:)`` and
/// the trait, without the reporting.
enum ScheduleExploring {
  ///
  /// - Parameter site: In a Swift Testing test, where to report what the failing schedule throws:
  ///   its last run is run once more, and its issues are reported where they happen, the first
  ///   with the report (``ScheduleFailure/isReported``). `nil` reports nothing.
  ///   - opensWorlds: Whether each run of `body` is put in a world of its own; `false` for a
  ///     body that opens its own, under ``ScheduleRun/current`` (an XCTest test's whole run).
  ///   - replayAdvice: How the report says to replay a failure's token; `nil` for the trait and
  ///     the function.
  static func explore(
    _ count: Int, seed: UInt64?, replay: String?, reportingAt site: SourceLocation? = nil,
    opensWorlds: Bool = true, replayAdvice: ((String) -> String)? = nil,
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
  ) async -> ScheduleExploration {
    // The whole exploration — the failing schedule's last run too — in the process's turn.
    await ExplorationTurns.inTurn {
      await explore(
        count, seed: seed, replay: replay, reportingAt: site, opensWorlds: opensWorlds,
        replayAdvice: replayAdvice, inTurn: body)
    }
  }

  /// The failure of an exploration part of whose body ran outside virtual time, where no
  /// schedule chose its order: what it did there.
  static func ranOutside(_ notes: [String]) -> String {
    "part of the body ran outside virtual time, where no schedule chose its order, so passing "
      + "proves nothing about the orders of that work: "
      + (notes.isEmpty ? "no scheduler followed the schedules" : notes.joined(separator: "; "))
  }

  private static func explore(
    _ count: Int, seed: UInt64?, replay: String?, reportingAt site: SourceLocation?,
    opensWorlds: Bool, replayAdvice: ((String) -> String)?,
    isolation: isolated (any Actor)? = #isolation, inTurn body: () async throws -> Void
  ) async -> ScheduleExploration {
    let environment = Environment.current
    let replay = replay ?? environment.replay
    // NB: in XCTest, the watcher hears the assertions that fail in a schedule.
    if Test.current == nil, XCTestWatcher.mayRunXCTest { _ = XCTestWatcher.shared }
    let count = max(count, environment.schedules ?? 0)
    let seed = seed ?? environment.seed ?? UInt64.random(in: 0...UInt64.max)
    var runs = 0
    /// The body in a world of the run's own — a fresh one, or, inside a world open already (a
    /// `.virtualTime` test's), a scheduler of its own on the world's timeline — so that its tasks,
    /// sleeps and awaits follow the schedule; writing in record mode only if `mayRecord`.
    func runBody(mayRecord: Bool) async throws {
      func inWorld() async throws {
        guard opensWorlds else { return try await body() }
        let settings = VirtualTimeSettings.current
        try await withVirtualTime(
          tick: settings?.tick ?? .milliseconds(1),
          stepLimit: settings?.stepLimit ?? TestScheduler.defaultStepLimit,
          stallTimeout: settings?.stallTimeout ?? TestScheduler.defaultStallTimeout,
          fileID: site?.fileID ?? #fileID, line: UInt(site?.line ?? #line),
          column: UInt(site?.column ?? #column)
        ) { _ in
          ScheduleRun.current?.nameTheCurrentTask("test")
          try await body()
        }
      }
      if mayRecord {
        try await inWorld()
      } else {
        try await withMarbleRecording(.never) { try await inWorld() }
      }
    }
    func run(_ schedule: ScheduleRun) async -> [String] {
      // Record mode writes from schedule 0 alone, the order a plain run has: another schedule's
      // actual marble is a rare order's, and shrinking and the failing schedule's re-run repeat
      // rare orders. A replay's one run is a rare order too. In Swift Testing it writes from the
      // last run of a failing schedule 0 (`runReporting`), whose issues are real — so that a
      // failure a `withKnownIssue` around the exploration takes is not recorded — and never from
      // a run whose issues are held.
      let isFirst = runs == 0
      let mayRecord = replay == nil && isFirst && Test.current == nil
      runs += 1
      let capture = IssueCapture()
      await IssueCapture.$current.withValue(capture) {
        await ScheduleRun.$current.withValue(schedule) {
          guard Test.current != nil else {
            do { try await runBody(mayRecord: mayRecord) } catch {
              capture.append("caught error: \(error)")
            }
            return
          }
          // The schedule's issues are held, not reported: the `withKnownIssue` below takes them
          // (before a `withKnownIssue` around the exploration can), and the handler keeps them
          // out of the test's results. What else the body records — its warnings, the issues a
          // `withKnownIssue` of its own takes — is reported once, from the first run.
          do {
            try await withIssues(handledBy: { issue in
              isFirst && !capture.holds(issue) ? issue : nil
            }) {
              try await withKnownIssue(isIntermittent: true) {
                try await runBody(mayRecord: mayRecord)
              } matching: { issue in
                guard issue.severity >= .error else { return false }
                capture.hold(issue)
                return true
              }
            }
          } catch {
            capture.append("caught error: \(error)")
          }
        }
      }
      return capture.all
    }
    /// Runs the failing schedule once more, its issues reported where they happen with `report`;
    /// returns how many failing issues were.
    func runReporting(
      _ schedule: ScheduleRun, report: String, at site: SourceLocation, mayRecord: Bool
    ) async -> Int {
      runs += 1
      let reported = ReportedIssues(report: report)
      let deferred = DeferredWarnings()
      defer { deferred.report() }
      await DeferredWarnings.$current.withValue(deferred) {
        await ScheduleRun.$current.withValue(schedule) {
          // The `withKnownIssue` takes nothing: it sees which issues are the schedule's failures,
          // before a `withKnownIssue` around the exploration takes them.
          try? await withIssues(handledBy: reported.report) {
            await withKnownIssue(isIntermittent: true) {
              do {
                try await runBody(mayRecord: mayRecord)
              } catch is ExpectationFailedError {
                // `#require` recorded it.
              } catch {
                Issue.record(error, sourceLocation: site)
              }
            } matching: { issue in
              reported.mark(issue)
              return false
            }
          }
        }
      }
      return reported.reported
    }
    var token: ScheduleToken?
    if let replay {
      guard let read = ScheduleToken(replay) else {
        let why =
          replay.hasPrefix("mrb1-")
          ? "it is a token of an earlier Marbles, which did not record who went first at each "
            + "choice: explore again for a token that replays"
          : "replay tokens begin with mrb2-, as a failure's report writes them"
        let failure = ScheduleFailure(
          schedule: 0, replay: replay, departures: 0, issues: [],
          description: "\"\(replay)\" is not a replay token (\(why)): nothing ran")
        return ScheduleExploration(
          schedulesRun: 0, choicePoints: 0, isExhaustive: false, seed: seed, failure: failure)
      }
      token = read
    }
    // The last run that failed, with its issues: the failure found is usually it (shrinking
    // ends on a failing run), and then it is not run again — a run again would repeat, in
    // XCTest, the assertion failures XCTest has recorded already.
    var lastFailing: (run: ScheduleRun, issues: [String])?
    // What the body's work did outside virtual time, in any run.
    var outside: [String] = []
    let outcome = await ScheduleExplorer.explore(count: count, seed: seed, replay: token) {
      schedule in
      let issues = await run(schedule)
      if !issues.isEmpty { lastFailing = (schedule, issues) }
      for note in schedule.uncontrolled where !outside.contains(note) { outside.append(note) }
      return issues.isEmpty
    }
    guard let found = outcome.failure else {
      var exploration = ScheduleExploration(
        schedulesRun: outcome.schedulesRun, choicePoints: outcome.choicePoints,
        isExhaustive: outcome.isExhaustive, seed: seed, failure: nil,
        departuresCovered: outcome.departuresCovered)
      // Work that ran outside virtual time was not explored: the passing of its runs says
      // nothing about the orders of that work. Say so, as a failure.
      guard outcome.isFollowed, outside.isEmpty else {
        exploration.failure = ScheduleFailure(
          schedule: 0, replay: replay ?? "", departures: 0, issues: [],
          description: Self.ranOutside(outside))
        return exploration
      }
      if let token, let replay {
        exploration.replayed = (replay, Self.followed(token, wholly: outcome.matchesWholly))
        // A replay that followed its token and passed passes: a token kept in a test after the
        // fix is a regression test. One that passed under another schedule proves nothing: say
        // so, as a failure.
        if let divergence = outcome.divergence {
          exploration.failure = ScheduleFailure(
            schedule: 0, replay: replay, departures: token.departures.count, issues: [],
            description: "the replay of \(replay) passed, but not under its schedule: "
              + "\(divergence) — the code or the test changed since it was recorded; explore "
              + "again to try its orders")
        }
      }
      return exploration
    }
    // Its issues and steps: from its last run, else from a run once more.
    let schedule: ScheduleRun
    let issues: [String]
    if let lastFailing, lastFailing.run.token == found.token {
      (schedule, issues) = lastFailing
    } else {
      schedule = ScheduleRun(ReplayStrategy(found.token))
      issues = await run(schedule)
    }
    let departures = found.token.departures.count
    var lines: [String] = []
    if let token, let replay {
      if let divergence = found.divergence {
        lines.append(
          "the replay of \(replay) failed, but not under its schedule: \(divergence) — the "
            + "code or the test changed since it was recorded")
      } else {
        lines.append(
          "the replayed schedule failed, following its token"
            + Self.followed(token, wholly: outcome.matchesWholly))
      }
    } else if found.schedule == 0 {
      lines.append("schedule 0 (FIFO, the usual order) failed (seed 0x\(String(seed, radix: 16)))")
    } else {
      lines.append(
        "schedule \(found.schedule) of \(count) (\(found.strategy), seed "
          + "0x\(String(seed, radix: 16))) failed; schedule 0 (FIFO) passes")
    }
    let issueLines = issues.map { "  " + $0.replacing("\n", with: "\n  ") }
    var rest: [String] = []
    if found.isShrinkingCut {
      rest.append(
        "shrinking stopped at its time budget (\(ScheduleExplorer.shrinkingTimeBudget) of real "
          + "time): the order below may depart from FIFO more than the failure needs")
    }
    if departures > 0 || token != nil {
      rest.append(
        "the order that failed, \(departures) departure\(departures == 1 ? "" : "s") from FIFO "
          + "(marked *):")
      rest.append(ScheduleReport.lanes(schedule.steps, names: schedule.names))
      if schedule.stepsLeftOut > 0 {
        rest.append(
          "(the first \(ScheduleRun.stepLogLimit) jobs; \(schedule.stepsLeftOut) more ran after "
            + "them)")
      }
    }
    for note in schedule.uncontrolled {
      rest.append(
        "driven work did this outside virtual time, where its order was not explored: \(note)")
    }
    rest.append(
      replayAdvice?("\(found.token)")
        ?? "replay it: @Test(.exploringSchedules(replay: \"\(found.token)\")), or "
        + "exploreSchedules(replay: \"\(found.token)\")")
    var failure = ScheduleFailure(
      schedule: found.schedule, replay: "\(found.token)", departures: departures, issues: issues,
      description: (lines + issueLines + rest).joined(separator: "\n"),
      picture: schedule.steps.isEmpty
        ? nil : ScheduleReport.picture(schedule.steps, names: schedule.names).svg())
    if let site, Test.current != nil {
      // The issues once more, each where it happened with its own expression, and the report with
      // the first: no second copy of them in the report.
      let reported = await runReporting(
        ScheduleRun(ReplayStrategy(found.token)), report: (lines + rest).joined(separator: "\n"),
        at: site, mayRecord: found.schedule == 0 && token == nil)
      failure.isReported = reported > 0
    }
    return ScheduleExploration(
      schedulesRun: outcome.schedulesRun, choicePoints: outcome.choicePoints,
      isExhaustive: outcome.isExhaustive, seed: seed, failure: failure)
  }

  /// How a replay that did not diverge followed `token`: choice for choice to the end, or through
  /// its last departure, after which the run's choices differ from the recorded run's (a fix
  /// changes what follows the order that failed).
  private static func followed(_ token: ScheduleToken, wholly: Bool) -> String {
    if wholly { return " choice for choice" }
    guard let last = token.departures.last else {
      return " (it has no departure from FIFO; the run's choices differ from the recorded ones)"
    }
    return " through its last departure, at choice \(last.point + 1) (the choices after it differ "
      + "from the recorded run's)"
  }

  /// An issue as a line of a report: its place, then what it says.
  static func describe(_ issue: Issue) -> String {
    let place = issue.sourceLocation.map { "\($0.fileID):\($0.line): " } ?? ""
    let comments = issue.comments.map(\.rawValue).joined(separator: "\n")
    return place + (comments.isEmpty ? "\(issue.kind)" : "\(issue.kind): " + comments)
  }

  /// What the environment asks of every exploration.
  struct Environment {
    /// `MARBLES_SCHEDULES=N`: every exploration runs at least `N` schedules.
    var schedules: Int?
    /// `MARBLES_SCHEDULE_SEED=S`: the seed of an exploration given none.
    var seed: UInt64?
    /// `MARBLES_EXPLORE=N`: every test that runs in a world (`.virtualTime`, an XCTest test
    /// case's `invokeTest()`) is explored under `N` schedules.
    var explore: Int?
    /// `MARBLES_REPLAY=token`: every exploration replays the token instead — for the one test
    /// it came from, run alone.
    var replay: String?

    static var current: Environment {
      func read(_ name: String) -> String? {
        guard let value = Platform.environment(name), !value.isEmpty else { return nil }
        return value
      }
      let seedText = read("MARBLES_SCHEDULE_SEED")
      let seed =
        seedText.flatMap { text in
          text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        }
      return Environment(
        schedules: read("MARBLES_SCHEDULES").flatMap { Int($0) }, seed: seed,
        explore: ScheduleRun.exploreEveryTest, replay: ScheduleRun.replayEveryTest)
    }
  }
}
