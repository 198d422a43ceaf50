import MarbleTesting
import RaceBugs
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

  /// Tasks that each sleep 10 ms and bump a counter: a small tree (issue 47.4), every order of
  /// which fits in the count. Every order runs once — at any number of departures — and the
  /// exploration stops there, exhaustive.
  static func sleepersBump(_ count: Int) async -> Bool {
    let scheduler = TestScheduler()
    let counter = Mutex(0)
    for _ in 0..<count {
      scheduler.task {
        try? await Task.sleep(for: .milliseconds(10))
        counter.withLock { $0 += 1 }
      }
    }
    scheduler.run()
    return counter.withLock { $0 } == count
  }

  /// Two sleepers: which starts first, which wakes first — a handful of orders. Three: a tree
  /// with departures beyond two, still whole within the count.
  @Test(arguments: [(2, 8), (3, 64)])
  func aWholeSmallTreeRunsEachOrderOnceAndIsExhaustive(sleepers: Int, atMost: Int) async {
    let outcome = await ScheduleExplorer.explore(count: 100, seed: 5) { schedule in
      await Self.run(schedule) { await Self.sleepersBump(sleepers) }
    }
    #expect(outcome.failure == nil)
    #expect(outcome.choicePoints >= sleepers, "\(outcome.choicePoints) choice points")
    #expect(outcome.isExhaustive, "\(outcome.schedulesRun) schedules, not called exhaustive")
    #expect(outcome.schedulesRun <= atMost, "the exploration stops when every order ran")
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
  /// wake-up may come between the task's two jobs, as on the runtime, where both run at once —
  /// whether the test calls `run()` or waits, its wait driving the world, whose loop races the
  /// wake-up due now against the ready job as a drain does. (The loop ran the ready jobs first,
  /// and an exploration of the waiting test passed every schedule it could reach.)
  static func writesStayTogether(whileTheTestWaits: Bool) async -> Bool {
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
    if whileTheTestWaits {
      try? await Task.sleep(for: .milliseconds(2))
    } else {
      scheduler.run()
    }
    let writes = log.all.indices.filter { log.all[$0].hasSuffix("write") }
    return log.all.count == 3 && writes.count == 2 && writes[1] == writes[0] + 1
  }

  @Test(arguments: [false, true])
  func aWakeUpCanComeBetweenTwoJobsOfAnotherTask(whileTheTestWaits: Bool) async {
    #expect(
      await Self.run(ScheduleRun(FIFOStrategy())) {
        await Self.writesStayTogether(whileTheTestWaits: whileTheTestWaits)
      })
    let outcome = await ScheduleExplorer.explore(count: 100, seed: 5) { schedule in
      await Self.run(schedule) {
        await Self.writesStayTogether(whileTheTestWaits: whileTheTestWaits)
      }
    }
    // FIFO wakes the sleeper before the scheduler's action at that tick (wake-ups before
    // actions): its fewest departures put the wake-up after the action, then between the writes.
    #expect(outcome.failure?.token.departures.count == 2)
  }

  @Test func theLanesAreAPictureOfTheirOwnToo() async {
    let schedule = ScheduleRun(FIFOStrategy())
    _ = await Self.run(schedule) { await RaceBugs.named("double spend").program() }
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

  /// The exploration sizes a level before it makes it: the count must be the schedules' number.
  @Test func aLevelsSizeIsCountedAsItWouldBeMade() {
    let made = [2, 1, 3, 4, 1, 2].map { ScheduleRun.Choice(count: $0, chosen: 0) }
    let level: [[ScheduleToken.Departure]] = [[]] + BoundedExhaustive.extensions(of: [], made: made)
    for departures in level {
      #expect(
        BoundedExhaustive.extensionCount(of: departures, made: made)
          == BoundedExhaustive.extensions(of: departures, made: made).count, "\(departures)")
    }
    #expect(BoundedExhaustive.extensionCount(of: [], made: made) == 1 + 2 + 3 + 1)
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
      .init(count: 2, chosen: 0, taken: .task(1), digest: 0x1234),
      .init(count: 3, chosen: 2, taken: .task(3), digest: 0x2345),
      .init(count: 40, chosen: 37, taken: .action(12), digest: 0xF_FFFF),
    ])
    #expect(token.description == "mrb2-3-mh33-1.t3.3.6yt-2.ac.14.mh33")
    #expect(ScheduleToken(token.description)?.description == token.description)
    #expect(
      ScheduleToken(token.description)?.departures.map(\.choice.taken) == [.task(3), .action(12)])
    // Tokens of an earlier Marbles, without identities; a departure past the choice points, out of
    // order, among fewer than two, or naming no one; a digest past 20 bits.
    for text in [
      "mrb1-3-1.2.3", "mrb2-3-0-3.t1.2.0", "mrb2-3-0-2.t1.2.0-1.t1.2.0", "mrb2-3-0-1.t1.1.0",
      "mrb2-3-0-1.x1.2.0", "mrb2-3-0-1.t1.2", "mrb2-3-zzzzz", "mrb2-3",
    ] {
      #expect(ScheduleToken(text) == nil, "\(text)")
    }
  }

  @Test func aReplayWhoseChoicesAreNoLongerPossibleSaysWhere() async {
    // Recorded where three jobs were ready at the first choice; the program has two.
    let token = ScheduleToken(choices: [.init(count: 3, chosen: 2, taken: .task(3), digest: 1)])
    let schedule = ScheduleRun(ReplayStrategy(token))
    _ = await Self.run(schedule) { await RaceBugs.named("double spend").program() }
    #expect(schedule.divergence?.point == 0)
    #expect(
      schedule.divergence?.description.hasPrefix(
        "the schedule diverged at choice 1: the token took task 3 there, of 3 steps that could "
          + "go first; this run offered task ") == true,
      "\(String(describing: schedule.divergence))")
  }
}
