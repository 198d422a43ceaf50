import Foundation
import MarbleTesting
import Marbles
import TestSupport
import Testing

/// Exploring a test written the way the code is written (issue 47.1, 47.2): each schedule runs in
/// a world of its own, and the world's loop makes every choice a drain makes — `async let`
/// children, plain tasks, which task reaches an actor first, wake-ups at one tick, the test's own
/// jobs. On 2026-11-28's `main` a body that only awaits ran once, in real time, and passed.
@Suite(.takesIssues) struct WorldExplorationTests {
  /// Two `async let` children that wake at the same tick and race to append to a log.
  static func twoChildrenRace() async {
    let log = await twoSleepingChildrenAppend()
    #expect(log == ["first", "second"])
  }

  /// The token client's launch, refreshing once, written the ways the docs show.
  enum Shape: String, CaseIterable, Sendable {
    /// `scheduler.task(name:)` for each launch path, and `scheduler.run()`.
    case namedTasks
    /// `scheduler.task { await appLaunch(client) }`, whose launch uses `async let`.
    case launchAsAScheduledTask
    /// `withVirtualTime` around the app's launch.
    case launchInWithVirtualTime
    /// `withVirtualTime` around two plain `Task`s, awaited.
    case plainTasksInWithVirtualTime
    /// The launch, awaited: the exploration's own world.
    case launchAwaited
  }

  static func launchRefreshesOnce(_ shape: Shape) async {
    let client = TokenClient()
    switch shape {
    case .namedTasks:
      let scheduler = TestScheduler()
      let session = Session()
      scheduler.task(name: "feed") { await loadFeed(client) }
      scheduler.task(name: "profile") { await loadProfile(client, session) }
      scheduler.run()
    case .launchAsAScheduledTask:
      let scheduler = TestScheduler()
      scheduler.task { await appLaunch(client) }
      scheduler.run()
    case .launchInWithVirtualTime:
      await withVirtualTime { _ in await appLaunch(client) }
    case .plainTasksInWithVirtualTime:
      await withVirtualTime { _ in
        let session = Session()
        let feed = Task { await loadFeed(client) }
        let profile = Task { await loadProfile(client, session) }
        await feed.value
        await profile.value
      }
    case .launchAwaited:
      await appLaunch(client)
    }
    #expect(await client.refreshes == 1)
  }

  @Test(arguments: Shape.allCases)
  func theTokenRaceIsFoundWithin100Schedules(_ shape: Shape) async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(100, seed: 3) { await Self.launchRefreshesOnce(shape) }
    }
    let failure = exploration?.failure
    #expect(failure != nil, "\(String(describing: exploration))")
    #expect(failure?.issues.first?.contains("client.refreshes == 1") == true, "\(issues)")
    #expect(issues.count == 1)
    // Its token replays it: the same failure.
    if let token = failure?.replay {
      let replayed = await takingIssues {
        _ = await exploreSchedules(replay: token) { await Self.launchRefreshesOnce(shape) }
      }
      #expect(replayed.first?.commentText.hasPrefix("the replayed schedule failed") == true)
    }
  }

  @Test func theAsyncLetRaceIsFoundWithin50Schedules() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(50, seed: 1) { await Self.twoChildrenRace() }
    }
    #expect(exploration?.failure?.schedule == 1, "\(String(describing: exploration))")
    #expect(issues.count == 1)
    #expect(
      issues.first.map { "\($0.kind)" }
        == #"Expectation failed: (log → ["second", "first"]) == ["first", "second"]"#)
  }

  /// The test's own task has a lane of its own, "test".
  @Test func theTestsOwnJobsHaveALaneNamedTest() async {
    let issues = await takingIssues {
      await exploreSchedules(50, seed: 1) { await Self.twoChildrenRace() }
    }
    #expect(issues.first?.commentText.contains("\n  test    ") == true, "\(issues)")
  }

  /// Inside a `.virtualTime` test each schedule runs on a scheduler of its own on the world's
  /// timeline: the race is found, and the world's time goes on from where the runs left it.
  @Test(.virtualTime) func insideAVirtualTimeTest() async throws {
    let issues = await takingIssues {
      let exploration = await exploreSchedules(50, seed: 1) { await Self.twoChildrenRace() }
      #expect(exploration.failure?.schedule == 1)
    }
    #expect(issues.count == 1)
    let scheduler = try #require(TestScheduler.current)
    let before = ContinuousClock.now
    let start = scheduler.now
    try await Task.sleep(for: .seconds(1))
    #expect(scheduler.now == start + 1_000)
    #expect(ContinuousClock.now - before == .seconds(1))
  }

  /// Correct code stays green: two tasks that each sleep and bump a counter.
  @Test func correctCodeThatAwaitsPassesEveryOrder() async {
    let exploration = await exploreSchedules(100, seed: 5) {
      let counter = Counter()
      async let one: Void = {
        try? await Task.sleep(for: .milliseconds(10)); await counter.bump()
      }()
      async let two: Void = {
        try? await Task.sleep(for: .milliseconds(10)); await counter.bump()
      }()
      _ = await (one, two)
      #expect(await counter.value == 2)
    }
    #expect(exploration.failure == nil, "\(exploration)")
    #expect(exploration.choicePoints > 0)
    // Which child starts first, which wakes first, which reaches the counter first: a whole tree
    // of a handful of orders (issue 47.4). On 2026-11-29's `main` every hop of a task's own job
    // and every sleep's wake-up job was a choice too: about 18 choice points, 100 schedules run
    // and the tree not whole.
    #expect(exploration.isExhaustive, "\(exploration)")
    #expect(exploration.schedulesRun <= 16, "\(exploration)")
  }

  actor Counter {
    private(set) var value = 0
    func bump() { value += 1 }
  }

  /// A task's switch between nonisolated functions is no step of an explored run: the runtime
  /// goes on at once there, and so does the world. Each child below is one step — its start, up to
  /// its call onto the actor, which is enqueued there (a choice: which child reaches the actor
  /// first) — and the actor's turns are the steps with no task, in which each child leaves the
  /// actor and returns through its calls at once, on the same thread, as in the runtime. (On `cf67354`, where an explored
  /// run's jobs ran on the driver, every such switch was a hop to enqueue: 5 steps a child.)
  @Test func aTasksSwitchesBetweenNonisolatedFunctionsAreNoSteps() async {
    let schedule = ScheduleRun(FIFOStrategy())
    await ScheduleRun.$current.withValue(schedule) {
      await withVirtualTime { _ in
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
          for _ in 1...3 { group.addTask { await Self.nested(3, counter) } }
        }
        #expect(await counter.value == 3)
      }
    }
    var stepsByTask: [UInt64: Int] = [:]
    for step in schedule.steps {
      if let task = step.task { stepsByTask[task, default: 0] += 1 }
    }
    let children = stepsByTask.keys.sorted().dropFirst()  // the first is the test's own task
    #expect(children.count == 3)
    #expect(children.map { stepsByTask[$0]! } == [1, 1, 1], "\(schedule.steps)")
    #expect(schedule.steps.contains { $0.task == nil }, "the actor's turns")
  }

  /// Three children that yield, then finish, and a parent that takes their results as they come.
  static func childrenAndTheirParent() async -> [String] {
    await withVirtualTime { _ in
      let log = Log()
      await withTaskGroup(of: Int.self) { group in
        for child in 1...3 {
          group.addTask {
            await Task.yield()
            log.append("child \(child)")
            return child
          }
        }
        for await child in group { log.append("parent took \(child)") }
      }
      return log.all
    }
  }

  /// FIFO's schedule of an explored run is the order of a run without exploring: a task resumed
  /// by a job that is no task's (a `Task.yield()`'s continuation job) and a parent resumed by its
  /// child's end go to the back of the line, as the runtime enqueues them; only the actor's turn
  /// that a task's hop enqueues goes first, where the runtime would have switched at once. (On
  /// `4387b49` both went first: the parent took each result before the next child ran, and every
  /// schedule explored started from an order no run without exploring makes.)
  @Test func fifosScheduleIsTheOrderOfARunWithoutExploring() async {
    let plain = await Self.childrenAndTheirParent()
    #expect(
      plain == [
        "child 1", "child 2", "child 3", "parent took 1", "parent took 2", "parent took 3",
      ])
    let fifo = ScheduleRun(FIFOStrategy())
    let explored = await ScheduleRun.$current.withValue(fifo) {
      await Self.childrenAndTheirParent()
    }
    #expect(explored == plain)
  }

  /// Calls itself `depth` times, then bumps `counter`: switches to nonisolated functions, then
  /// one onto an actor.
  static func nested(_ depth: Int, _ counter: Counter) async {
    guard depth > 0 else { return await counter.bump() }
    await nested(depth - 1, counter)
  }

  /// The trait forms, run as Swift Testing runs them, in a process of their own: each finds its
  /// race and reports it with its token.
  @Test func theTraitsFindTheRacesInTestsThatAwait() async throws {
    let output = try await runTestsInAChildProcess(
      filter: "WorldExplorationFixture",
      environment: ["MARBLES_WORLD_EXPLORATION_CHILD": "1", "MARBLES_EXPLORE_EVERY_SCHEDULER": ""]
    ).output
    for test in WorldExplorationFixture.failing {
      #expect(
        output.contains("Test \(test)() recorded an issue at "), "\(test)\n\(output.suffix(4000))")
    }
    let reports = output.components(separatedBy: "replay it: @Test(.exploringSchedules(replay:")
    #expect(reports.count - 1 == WorldExplorationFixture.failing.count, "\(output.suffix(4000))")
    #expect(
      output.contains(
        "Test run with \(WorldExplorationFixture.failing.count) tests in 1 suite failed"),
      "\(output.suffix(3000))")
    // The Finding races article shows the report of the test it leads with as it is printed.
    let shown = try #require(
      ArticleReports.report(
        in: "Sources/Marbles/Marbles.docc/FindingRaces.md",
        startingWith: "✘ Test launchRefreshesTheTokenOnce() recorded an issue at"))
    #expect(output.contains(shown), "the article shows:\n\(shown)\nthe run printed:\n\(output)")
  }

  /// `MARBLES_EXPLORE=N` explores every test that runs in a world: a `.virtualTime` test with no
  /// exploring trait of its own.
  @Test func marblesExploreExploresEveryTestInAWorld() async throws {
    let output = try await runTestsInAChildProcess(
      filter: "ExploreEveryWorldFixture",
      environment: [
        "MARBLES_EXPLORE_EVERY_WORLD_CHILD": "1", "MARBLES_EXPLORE": "50",
        "MARBLES_EXPLORE_EVERY_SCHEDULER": "",
      ]
    ).output
    #expect(
      output.contains(
        "Test launchRefreshesOnce() recorded an issue at WorldExplorationTests.swift"),
      "\(output.suffix(4000))")
    #expect(output.contains(" of 50 ("), "\(output.suffix(4000))")
    #expect(output.contains("Test aPlainTestIsNotExplored() passed"), "\(output.suffix(4000))")
    // A world the trait does not open runs one order — the race is missed — and says so, once.
    for (test, opened) in [
      ("aWorldOpenedByWithVirtualTimeSaysItIsNotExplored", "in `withVirtualTime`"),
      (
        "aWorldOpenedByTheFirstSchedulerSaysItIsNotExplored",
        "at the test's first `TestScheduler()`"
      ),
    ] {
      #expect(
        output.contains(
          "Test \(test)() recorded a warning at WorldExplorationTests.swift:"),
        "\(output.suffix(4000))")
      #expect(
        output.contains(
          "MARBLES_EXPLORE=50 did not explore this test: its world opened \(opened)"),
        "\(output.suffix(4000))")
    }
    #expect(
      output.components(separatedBy: "did not explore this test").count - 1 == 2,
      "\(output.suffix(4000))")
    #expect(output.contains("or `.exploringSchedules(n)`"), "\(output.suffix(4000))")
    // Without the variable, the same tests pass: one run each, in FIFO order (so not under
    // `make explore-every`'s random schedules either).
    let plain = try await runTestsInAChildProcess(
      filter: "ExploreEveryWorldFixture",
      environment: [
        "MARBLES_EXPLORE_EVERY_WORLD_CHILD": "1", "MARBLES_EXPLORE_EVERY_SCHEDULER": "",
      ]
    ).output
    #expect(plain.contains("Test run with 4 tests in 1 suite passed"), "\(plain.suffix(3000))")
    #expect(!plain.contains("did not explore"), "\(plain.suffix(3000))")
  }
}

extension WorldExplorationTests {
  /// `MARBLES_REPLAY=token` replays a failure's token in the test it came from, run alone: a
  /// `.virtualTime` test that `MARBLES_EXPLORE` found failing fails again, following the token,
  /// in one run. On 2026-11-29's `main` the variable did nothing: the test ran once, in FIFO
  /// order, and passed.
  @Test func marblesReplayReplaysTheTokenOfAFailure() async throws {
    let test = "ExploreEveryWorldFixture/launchRefreshesOnce"
    let explored = try await runTestsInAChildProcess(
      filter: test,
      environment: [
        "MARBLES_EXPLORE_EVERY_WORLD_CHILD": "1", "MARBLES_EXPLORE": "50",
        "MARBLES_EXPLORE_EVERY_SCHEDULER": "", "MARBLES_REPLAY": "",
      ]
    ).output
    let marker = "replay it: @Test(.exploringSchedules(replay: \""
    let after = try #require(
      explored.components(separatedBy: marker).dropFirst().first, "\(explored.suffix(3000))")
    let token = String(after.prefix { $0 != "\"" })
    #expect(token.hasPrefix("mrb2-"))
    let replayed = try await runTestsInAChildProcess(
      filter: test,
      environment: [
        "MARBLES_EXPLORE_EVERY_WORLD_CHILD": "1", "MARBLES_EXPLORE": "",
        "MARBLES_EXPLORE_EVERY_SCHEDULER": "", "MARBLES_REPLAY": token,
      ]
    ).output
    #expect(
      replayed.contains("the replayed schedule failed, following its token"),
      "\(replayed.suffix(3000))")
    #expect(
      replayed.contains("Test launchRefreshesOnce() recorded an issue at"),
      "\(replayed.suffix(3000))")
  }
}

/// Run by `WorldExplorationTests` in a process of its own (skipped in the suite's own run).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["MARBLES_WORLD_EXPLORATION_CHILD"] != nil))
struct WorldExplorationFixture {
  static let failing = [
    "asyncLetWithTheTrait", "asyncLetWithBothTraits", "asyncLetWithBothTraitsTheOtherWay",
    "tokenWithTheTraitAndNamedTasks", "tokenWithTheTraitAndWithVirtualTime",
    "tokenWithBothTraits", "launchRefreshesTheTokenOnce",
  ]

  @Test(.exploringSchedules(50, seed: 1)) func asyncLetWithTheTrait() async {
    await WorldExplorationTests.twoChildrenRace()
  }

  @Test(.virtualTime, .exploringSchedules(50, seed: 1)) func asyncLetWithBothTraits() async {
    await WorldExplorationTests.twoChildrenRace()
  }

  @Test(.exploringSchedules(50, seed: 1), .virtualTime) func asyncLetWithBothTraitsTheOtherWay()
    async
  {
    await WorldExplorationTests.twoChildrenRace()
  }

  @Test(.exploringSchedules(100, seed: 3)) func tokenWithTheTraitAndNamedTasks() async {
    await WorldExplorationTests.launchRefreshesOnce(.namedTasks)
  }

  @Test(.exploringSchedules(100, seed: 3)) func tokenWithTheTraitAndWithVirtualTime() async {
    await WorldExplorationTests.launchRefreshesOnce(.plainTasksInWithVirtualTime)
  }

  @Test(.virtualTime, .exploringSchedules(100, seed: 3)) func tokenWithBothTraits() async {
    await WorldExplorationTests.launchRefreshesOnce(.launchAwaited)
  }

  // snippet: finding-races-awaiting
  @Test(.exploringSchedules(100, seed: 3)) func launchRefreshesTheTokenOnce() async {
    let client = TokenClient()
    await appLaunch(client)
    #expect(await client.refreshes == 1)
  }
  // snippet-end
}

/// Run by `WorldExplorationTests` with `MARBLES_EXPLORE=50`, in a process of its own.
@Suite(
  .enabled(if: ProcessInfo.processInfo.environment["MARBLES_EXPLORE_EVERY_WORLD_CHILD"] != nil))
struct ExploreEveryWorldFixture {
  @Test(.virtualTime) func launchRefreshesOnce() async {
    let client = TokenClient()
    await appLaunch(client)
    #expect(await client.refreshes == 1)
  }

  /// No world: not explored, and passes.
  @Test func aPlainTestIsNotExplored() async {
    #expect(ScheduleRun.current == nil)
  }

  /// A world opened in the body: one order runs, and a warning says the test was not explored.
  @Test func aWorldOpenedByWithVirtualTimeSaysItIsNotExplored() async {
    await withVirtualTime { _ in
      let client = TokenClient()
      await appLaunch(client)
      #expect(await client.refreshes == 1)
    }
  }

  /// A world opened by the test's first scheduler: the same.
  @Test func aWorldOpenedByTheFirstSchedulerSaysItIsNotExplored() async {
    let scheduler = TestScheduler()
    let client = TokenClient()
    await appLaunch(client)
    #expect(await client.refreshes == 1)
    #expect(scheduler.now >= 0)
  }
}
