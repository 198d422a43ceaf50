@_spi(Exploration) import MarbleTesting
import Synchronization
import Testing

/// Exploring schedules, the core: the choice point in the driver, the strategies, the token, the
/// shrinking and the replay — on small programs whose result does or does not depend on the order
/// of same-tick work.
@Suite struct ScheduleExplorationTests {
  /// Runs `body` under `schedule`: every scheduler it makes follows the schedule's choices.
  static func run(_ schedule: ScheduleRun, _ body: () async -> Bool) async -> Bool {
    await ScheduleRun.$current.withValue(schedule) { await body() }
  }

  // MARK: Bugs that pass in FIFO order

  /// A search that shows whichever response arrives last, without checking that it answers the
  /// latest query: two queries at one tick, the stale answer can land after the fresh one.
  @MainActor final class StaleSearch {
    var shown = ""
    func search(_ query: String) {
      Task {
        let answer = await Self.fetch(query)
        self.shown = answer
      }
    }
    nonisolated static func fetch(_ query: String) async -> String {
      await Task.yield()  // the network
      return "results for \(query)"
    }
  }

  @MainActor static func staleSearchShowsTheLatest() async -> Bool {
    let scheduler = TestScheduler()
    let search = StaleSearch()
    search.search("sw")
    search.search("swift")
    scheduler.run()
    return search.shown == "results for swift"
  }

  /// Two withdrawals from one account: each checks the balance, then takes the money after a
  /// hop; the second validates first, so in FIFO order the first is done before it checks.
  actor Account {
    var balance = 100
    func withdraw(_ amount: Int) async -> Bool {
      guard balance >= amount else { return false }
      await Self.audit()
      balance -= amount
      return true
    }
    nonisolated static func audit() async { await Task.yield() }
  }

  static func noDoubleSpend() async -> Bool {
    let scheduler = TestScheduler()
    let account = Account()
    Task { _ = await account.withdraw(80) }
    Task {
      await Task.yield()  // validates the request first
      await Task.yield()
      _ = await account.withdraw(80)
    }
    scheduler.run()
    return await account.balance >= 0
  }

  /// Two searches at one tick whose answers take the same 100 ms: the answer that wakes last is
  /// shown, and FIFO wakes the first query first.
  @MainActor static func sameLatencyShowsTheLatest() async -> Bool {
    let scheduler = TestScheduler()
    let shown = Log()
    for query in ["sw", "swift"] {
      Task {
        try await Task.sleep(for: .milliseconds(100))
        shown.append("results for \(query)")
      }
    }
    scheduler.run()
    return shown.all.last == "results for swift"
  }

  /// A token store without an in-flight refresh: a caller that comes back as a refresh ends can
  /// start a second one.
  actor TokenStore {
    private var token: String?
    private(set) var refreshes = 0
    func current() async throws -> String {
      if let token { return token }
      refreshes += 1
      try await Task.sleep(for: .milliseconds(10))  // the refresh request
      token = "token \(refreshes)"
      return token!
    }
  }

  static func oneRefresh() async -> Bool {
    let scheduler = TestScheduler()
    let store = TokenStore()
    Task { _ = try await store.current() }
    Task {
      try await Task.sleep(for: .milliseconds(10))  // a second screen asks a little later
      _ = try await store.current()
    }
    scheduler.run()
    return await store.refreshes == 1
  }

  static func bug(_ number: Int) -> () async -> Bool {
    switch number {
    case 0: { await Self.staleSearchShowsTheLatest() }
    case 1: { await Self.noDoubleSpend() }
    case 2: { await Self.sameLatencyShowsTheLatest() }
    default: { await Self.oneRefresh() }
    }
  }

  /// Each bug, a seed, and the fewest departures from FIFO that make it fail: the stale answer
  /// needs its fetch's continuation to go after the other's (one); the double spend needs each of
  /// the second withdrawal's three steps before the first one's deduction to jump the queue; the
  /// same-latency answers need the second wake-up first (one); the second refresh needs the late
  /// caller's wake-up before the refresh's end (one).
  @Test(
    arguments: [
      (0, 42, 1), (0, 0xBEEF, 1), (1, 42, 3), (1, 0xBEEF, 3), (2, 42, 1), (2, 0xBEEF, 1),
      (3, 42, 1), (3, 0xBEEF, 1),
    ] as [(Int, UInt64, Int)])
  func aBugThatPassesInFIFOIsFoundShrunkAndReplayed(
    _ program: Int, _ seed: UInt64, _ fewest: Int
  ) async {
    let body = Self.bug(program)
    // FIFO passes.
    #expect(await Self.run(ScheduleRun(FIFOStrategy()), body))
    let outcome = await ScheduleExplorer.explore(count: 100, seed: seed) { schedule in
      await Self.run(schedule, body)
    }
    guard let failure = outcome.failure else {
      Issue.record("not found in 100 schedules from seed \(seed)")
      return
    }
    #expect(failure.schedule > 0)
    #expect(failure.token.departures.count == fewest, "\(failure.token)")
    // The token reads back, and its replay fails, 1 time out of 1.
    #expect(ScheduleToken(failure.token.description) == failure.token)
    let replay = await ScheduleExplorer.explore(count: 1, seed: 0, replay: failure.token) {
      schedule in await Self.run(schedule, body)
    }
    #expect(replay.failure != nil)
    #expect(replay.failure?.divergence == nil)
  }

  // MARK: Soundness

  /// Ten tasks add to an actor's total across hops: any order gives the same total.
  static func orderIndependentTotal() async -> Bool {
    actor Total {
      var value = 0
      func add(_ amount: Int) { value += amount }
    }
    let scheduler = TestScheduler()
    let total = Total()
    for amount in 1...10 {
      Task {
        await Task.yield()
        await total.add(amount)
        await Task.yield()
        await total.add(amount)
      }
    }
    scheduler.run()
    return await total.value == 110
  }

  @Test func codeWhoseResultDoesNotDependOnOrderPassesEverySchedule() async {
    let outcome = await ScheduleExplorer.explore(count: 200, seed: 7) { schedule in
      await Self.run(schedule) { await Self.orderIndependentTotal() }
    }
    #expect(outcome.failure == nil)
    #expect(outcome.schedulesRun == 200)
    #expect(outcome.choicePoints > 10)
  }

  /// Main-actor tasks started in order from the main actor: the main actor's queue keeps them in
  /// that order in every schedule ("keeps its order": a serial executor's queue).
  @MainActor static func mainActorJobsKeepTheirOrder() async -> Bool {
    let scheduler = TestScheduler()
    var log: [Int] = []
    for index in 0..<8 {
      Task { @MainActor in log.append(index) }
      Task { await Task.yield() }  // other work at the same tick, which may go first
    }
    scheduler.run()
    return log == Array(0..<8)
  }

  @Test func mainActorJobsKeepTheirOrderInEverySchedule() async {
    let outcome = await ScheduleExplorer.explore(count: 200, seed: 3) { schedule in
      await Self.run(schedule) { await Self.mainActorJobsKeepTheirOrder() }
    }
    #expect(outcome.failure == nil)
    #expect(outcome.choicePoints > 0)
  }

  /// The scheduler's own actions due at one tick — scheduled work, as a hot signal's events are —
  /// keep their order in every schedule, wake-ups around them notwithstanding.
  static func actionsKeepTheirOrder() async -> Bool {
    let scheduler = TestScheduler()
    let log = Log()
    for index in 0..<4 {
      Task {
        try await Task.sleep(for: .milliseconds(2))
        log.append("woke \(index)")
      }
    }
    for index in 0..<4 { scheduler.schedule(at: 2) { log.append("action \(index)") } }
    scheduler.run()
    return log.all.filter { $0.hasPrefix("action") } == (0..<4).map { "action \($0)" }
      && log.all.count == 8
  }

  @Test func theSchedulersOwnActionsKeepTheirOrderInEverySchedule() async {
    let outcome = await ScheduleExplorer.explore(count: 200, seed: 11) { schedule in
      await Self.run(schedule) { await Self.actionsKeepTheirOrder() }
    }
    #expect(outcome.failure == nil)
    #expect(outcome.choicePoints > 0)
  }

  /// Two writes a task makes around a hop, and a sleeper that wakes at that tick: the sleeper's
  /// wake-up may come between the task's two jobs, as on the runtime, where both run at once.
  static func writesStayTogether() async -> Bool {
    let scheduler = TestScheduler()
    let log = Log()
    Task {
      try await Task.sleep(for: .milliseconds(1))
      log.append("sleeper")
    }
    scheduler.schedule(at: 1) {
      Task {
        log.append("first write")
        await Task.yield()
        log.append("second write")
      }
    }
    scheduler.run()
    let writes = log.all.indices.filter { log.all[$0].hasSuffix("write") }
    return writes.count == 2 && writes[1] == writes[0] + 1
  }

  @Test func aWakeUpCanComeBetweenTwoJobsOfAnotherTask() async {
    #expect(await Self.run(ScheduleRun(FIFOStrategy())) { await Self.writesStayTogether() })
    let outcome = await ScheduleExplorer.explore(count: 100, seed: 5) { schedule in
      await Self.run(schedule) { await Self.writesStayTogether() }
    }
    #expect(outcome.failure?.token.departures.count == 1)
  }

  @Test func theLanesAreAPictureOfTheirOwnToo() async {
    let schedule = ScheduleRun(FIFOStrategy())
    _ = await Self.run(schedule) { await Self.noDoubleSpend() }
    let picture = ScheduleReport.picture(schedule.steps, names: [:])
    #expect(picture.lanes.map(\.title) == ["task 1", "task 2", "actor jobs"])
    #expect(picture.lanes.flatMap(\.items).count == schedule.steps.count)
    #expect(picture.svg().contains("the order that failed"))
  }

  // MARK: Strategies and tokens

  @Test func fifoMakesTodaysChoices() async {
    let schedule = ScheduleRun(FIFOStrategy())
    #expect(await Self.run(schedule) { await Self.orderIndependentTotal() })
    #expect(!schedule.choices.isEmpty)
    #expect(schedule.choices.allSatisfy { $0.chosen == 0 && $0.count >= 2 })
    #expect(schedule.token.departures.isEmpty)
  }

  @Test func aSeedGivesTheSameSchedulesEveryTime() async {
    var runs: [[ScheduleRun.Choice]] = []
    for _ in 0..<2 {
      let (strategy, _) = ScheduleExplorer.strategy(forSchedule: 1, seed: 99, length: 20)
      let schedule = ScheduleRun(strategy)
      _ = await Self.run(schedule) { await Self.orderIndependentTotal() }
      runs.append(schedule.choices)
    }
    #expect(runs[0] == runs[1])
    #expect(runs[0].contains { $0.chosen != 0 })
  }

  @Test func tokensReadBackAndRejectWhatIsNotOne() {
    let token = ScheduleToken(choices: [
      .init(count: 2, chosen: 0), .init(count: 3, chosen: 2), .init(count: 40, chosen: 37),
    ])
    #expect(token.description == "mrb1-3-1.2.3-2.11.14")
    #expect(ScheduleToken(token.description) == token)
    #expect(ScheduleToken("mrb2-3") == nil)
    #expect(ScheduleToken("mrb1-3-1.3.3") == nil)
  }

  @Test func aReplayWhoseChoicesAreNoLongerPossibleSaysWhere() async {
    // Recorded where three jobs were ready at the first choice; the program has two.
    let token = ScheduleToken(choices: [.init(count: 3, chosen: 2)])
    let schedule = ScheduleRun(ReplayStrategy(token))
    _ = await Self.run(schedule) { await Self.noDoubleSpend() }
    #expect(schedule.divergence == 0)
  }
}
