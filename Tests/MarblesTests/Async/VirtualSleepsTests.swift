import MarbleTesting
import Marbles
import Observation
import Signals
import Synchronization
import TestSupport
import Testing

/// "Virtual time without injection": the standard library's own sleeps — `Task.sleep`,
/// `ContinuousClock`, `SuspendingClock` — in the tasks a scheduler drives sleep in its virtual
/// time, exactly as the same sleep on `scheduler.clock` would. No clock is injected anywhere, and
/// no test here yields or sleeps for real.
@Suite struct VirtualSleepsTests {
  /// The five standard sleep forms, each for `duration`.
  enum Form: String, CaseIterable, Sendable {
    case taskSleepFor, taskSleepNanoseconds, taskSleepUntil, continuousClock, suspendingClock
    case withTolerance, continuousClockUntil

    func sleep(for duration: Duration) async throws {
      switch self {
      case .taskSleepFor:
        try await Task.sleep(for: duration)
      case .taskSleepNanoseconds:
        let (seconds, attoseconds) = duration.components
        try await Task.sleep(
          nanoseconds: UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
      case .taskSleepUntil:
        try await Task.sleep(until: .now + duration, clock: .continuous)
      case .continuousClock:
        try await ContinuousClock().sleep(for: duration)
      case .suspendingClock:
        try await SuspendingClock().sleep(for: duration)
      case .withTolerance:
        try await Task.sleep(for: duration, tolerance: .seconds(1))
      case .continuousClockUntil:
        let clock = ContinuousClock()
        try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: .milliseconds(5))
      }
    }
  }

  // MARK: Exact ticks

  @Test(arguments: Form.allCases)
  func eachStandardSleepWakesAtItsTick(_ form: Form) {
    let scheduler = TestScheduler()
    let woke = Ticks()
    scheduler.task {
      try await form.sleep(for: .milliseconds(300))
      woke.append(scheduler.now)
    }
    scheduler.advance(by: 299)
    #expect(woke.all == [], "nothing at tick 299")
    #expect(scheduler.hasScheduledWork, "the sleeping task counts as scheduled work")
    scheduler.advance(by: 1)
    #expect(woke.all == [300])
    #expect(!scheduler.hasScheduledWork)
  }

  @Test(arguments: Form.allCases)
  func aSleepBetweenTicksEndsAtTheNextTick(_ form: Form) {
    let scheduler = TestScheduler(tick: .milliseconds(7))
    let woke = Ticks()
    scheduler.task {
      try await form.sleep(for: .milliseconds(300))
      woke.append(scheduler.now)
      try await form.sleep(for: .milliseconds(7))
      woke.append(scheduler.now)
    }
    scheduler.run()
    // 300 / 7 = 42.9: tick 43, as on scheduler.clock; then exactly one tick more.
    #expect(woke.all == [43, 44])
    #expect(scheduler.now == 44)
  }

  @Test func aSleepOfZeroOrLessEndsAtOnce() {
    let scheduler = TestScheduler()
    let woke = Ticks()
    scheduler.task {
      try await Task.sleep(for: .zero)
      woke.append(scheduler.now)
      try await Task.sleep(for: .milliseconds(-5))
      woke.append(scheduler.now)
    }
    scheduler.advance(by: 0)
    #expect(woke.all == [0, 0])
  }

  @Test(arguments: Form.allCases)
  func aCancelledSleepThrowsAtThatTickAndLeavesNothingScheduled(_ form: Form) {
    let scheduler = TestScheduler()
    let ended = Mutex<(tick: Int, error: String)?>(nil)
    let task = scheduler.task {
      do {
        try await form.sleep(for: .milliseconds(300))
      } catch {
        ended.withLock { $0 = (scheduler.now, "\(type(of: error))") }
      }
    }
    scheduler.advance(by: 100)
    task.cancel()
    #expect(scheduler.hasScheduledWork, "the cancelled task still has to run its catch")
    scheduler.advance(by: 0)
    #expect(ended.withLock { $0?.tick } == 100)
    #expect(ended.withLock { $0?.error } == "CancellationError")
    #expect(!scheduler.hasScheduledWork, "the cancelled sleep left nothing scheduled")
    scheduler.run()
    #expect(scheduler.now == 100, "run() found nothing to move the clock to")
  }

  @Test func sameSleepOnTheSchedulersClockAndOnTheStandardOnesWakeTogether() {
    let scheduler = TestScheduler(tick: .milliseconds(3))
    let log = Log()
    for (name, duration) in [("a", 10), ("b", 9), ("c", 1)] {
      scheduler.task {
        try await scheduler.clock.sleep(for: .milliseconds(duration))
        log.append("clock \(name)@\(scheduler.now)")
      }
      scheduler.task {
        try await Task.sleep(for: .milliseconds(duration))
        log.append("stdlib \(name)@\(scheduler.now)")
      }
    }
    scheduler.run()
    #expect(
      log.all == [
        "clock c@1", "stdlib c@1", "clock b@3", "stdlib b@3", "clock a@4", "stdlib a@4",
      ])
  }

  /// Exact whatever the machine does: a sleep is never a tick short or long because a thread was
  /// preempted between the standard library reading the real clock and Marbles seeing the
  /// deadline. (`make integration-stress` runs this with busy cores.)
  @Test func twoThousandSleepsOfThreeHundredMillisecondsEndAtExactlySixHundredSeconds() {
    let scheduler = TestScheduler()
    let woke = Ticks()
    scheduler.task {
      for _ in 0..<2_000 {
        try await Task.sleep(for: .milliseconds(300))
        woke.append(scheduler.now)
      }
    }
    scheduler.run()
    #expect(scheduler.now == 600_000)
    #expect(woke.all == (1...2_000).map { $0 * 300 })
  }

  /// A preemption between the caller reading the clock and sleeping until its deadline, made on
  /// purpose: the task reads the deadline, then blocks 5 ms of real time before sleeping until
  /// it. The reading is virtual and real time does not move it, so the sleep is still the 10 ms
  /// the caller asked for.
  @Test func aDelayBetweenReadingTheClockAndSleepingChangesNothing() {
    let scheduler = TestScheduler()
    let woke = Ticks()
    scheduler.task {
      let continuousDeadline = ContinuousClock.now + .milliseconds(10)
      blockForRealTime(microseconds: 5_000)
      try await Task.sleep(until: continuousDeadline, clock: .continuous)
      woke.append(scheduler.now)
      let suspendingDeadline = SuspendingClock.now + .milliseconds(10)
      blockForRealTime(microseconds: 5_000)
      try await SuspendingClock().sleep(until: suspendingDeadline)
      woke.append(scheduler.now)
    }
    scheduler.run()
    #expect(woke.all == [10, 20])
  }

  @Test func manyTasksSleepingAtOnceEachWakeAtTheirOwnTick() {
    let scheduler = TestScheduler()
    let log = Log()
    for index in 0..<200 {
      Task {
        try await Task.sleep(for: .milliseconds(10 + index % 7))
        log.append("\(index)@\(scheduler.now)")
      }
    }
    scheduler.run()
    let expected = (0..<200).map { "\($0)@\(10 + $0 % 7)" }
    #expect(log.all.sorted() == expected.sorted())
    #expect(scheduler.now == 16)
  }

  // MARK: The shapes users write

  @Test func aPlainTaskFromAnAsyncTestBody() async {
    let scheduler = TestScheduler()
    let woke = Ticks()
    Task {
      try await Task.sleep(for: .milliseconds(5))
      woke.append(scheduler.now)
    }
    scheduler.advance(by: 4)
    #expect(woke.all == [])
    scheduler.advance(by: 1)
    #expect(woke.all == [5])
  }

  @Test func aDetachedTaskFromASyncTestBody() {
    let scheduler = TestScheduler()
    let woke = Ticks()
    Task.detached {
      try await SuspendingClock().sleep(for: .milliseconds(5))
      woke.append(scheduler.now)
    }
    scheduler.advance(by: 4)
    #expect(woke.all == [])
    scheduler.advance(by: 1)
    #expect(woke.all == [5])
  }

  @Test func aTaskAnInitStarts() {
    final class Heartbeat: Sendable {
      let beats = Ticks()
      init(now: @escaping @Sendable () -> Int) {
        let beats = beats
        Task {
          while (try? await Task.sleep(for: .seconds(1))) != nil { beats.append(now()) }
        }
      }
    }
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let heartbeat = Heartbeat { scheduler.now }
    scheduler.advance(by: .milliseconds(3_500))
    #expect(heartbeat.beats.all == [10, 20, 30])
  }

  @Test func childTasksOfAGroupAndAsyncLets() {
    let scheduler = TestScheduler()
    let log = Log()
    scheduler.task {
      await withTaskGroup(of: Void.self) { group in
        for delay in [3, 1, 2] {
          group.addTask {
            try? await Task.sleep(for: .milliseconds(delay))
            log.append("child \(delay)@\(scheduler.now)")
          }
        }
      }
      async let first: Void = ContinuousClock().sleep(for: .milliseconds(4))
      async let second: Void = SuspendingClock().sleep(for: .milliseconds(2))
      _ = try await (first, second)
      log.append("async lets@\(scheduler.now)")
    }
    scheduler.run()
    #expect(log.all == ["child 1@1", "child 2@2", "child 3@3", "async lets@7"])
  }

  @Test func aDefaultActorsMethodAndTheTasksItStarts() async {
    let scheduler = TestScheduler()
    let cache = ExpiringCache(ttl: .seconds(60))
    let answers = Log()
    Task {
      await cache.insert("swift", for: "lang")
      let early = try await cache.slowValue(for: "lang", after: .seconds(59))
      answers.append("\(early ?? "nil")@\(scheduler.now)")
      let late = try await cache.slowValue(for: "lang", after: .seconds(1))
      answers.append("\(late ?? "nil")@\(scheduler.now)")
    }
    scheduler.run()
    #expect(answers.all == ["swift@59000", "nil@60000"])
    #expect(scheduler.now == 60_000)
  }

  @Test func theMainActor() {
    let scheduler = TestScheduler()
    let log = Log()
    Task { @MainActor in
      try await Task.sleep(for: .milliseconds(2))
      log.append("main task@\(scheduler.now)")
    }
    Task {
      await MainActor.run { log.append("hop") }
      try await Self.sleepOnTheMainActor(.milliseconds(3))
      log.append("after main actor sleep@\(scheduler.now)")
    }
    scheduler.run()
    #expect(log.all == ["hop", "main task@2", "after main actor sleep@3"])
  }

  @MainActor static func sleepOnTheMainActor(_ duration: Duration) async throws {
    try await ContinuousClock().sleep(for: duration)
  }

  @Test func aPollerOnContinuousClockAsMarbles() {
    let scheduler = TestScheduler(tick: .seconds(1))
    let reads = Atomic(0)
    let readings = scheduler.record(
      poll(every: .seconds(1)) { reads.add(1, ordering: .relaxed).newValue }, disposeAt: 4)
    scheduler.run()
    assertMarbles(readings, "abcd", values: ["a": 1, "b": 2, "c": 3, "d": 4])
    #expect(reads.load(ordering: .relaxed) == 4, "the poller stopped when the recording did")
    #expect(!scheduler.hasScheduledWork)
  }

  @Test func retryWithExponentialBackoff() throws {
    let scheduler = TestScheduler()
    let attempts = Ticks()
    let result = scheduler.task {
      try await withRetries(attempts: 5, initialBackoff: .milliseconds(100)) {
        attempts.append(scheduler.now)
        guard attempts.all.count == 4 else { throw TestError("down") }
        return "up"
      }
    }
    scheduler.run()
    #expect(attempts.all == [0, 100, 300, 700])
    #expect(scheduler.now == 700)
    _ = result
  }

  @Test func aTaskTheScheduledDoesNotDriveKeepsRealTime() async throws {
    // Made before the scheduler: not the scheduler's, so its sleep is a real one.
    let before = Task { try await Task.sleep(for: .milliseconds(1)) }
    let scheduler = TestScheduler()
    try await before.value
    #expect(scheduler.now == 0)
    #expect(!scheduler.hasScheduledWork)
  }

  // MARK: Task.immediate

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test(arguments: 0..<20)
  func taskImmediateInAnAsyncTestBody(_ run: Int) async {
    let scheduler = TestScheduler()
    let log = Log()
    Task.immediate {
      log.append("first step@\(scheduler.now)")
      try await Task.sleep(for: .milliseconds(5))
      log.append("woke@\(scheduler.now)")
      Task { log.append("its own task@\(scheduler.now)") }
    }
    #expect(log.all == ["first step@0"], "the first step runs in the caller, at once")
    scheduler.advance(by: 4)
    #expect(log.all == ["first step@0"])
    scheduler.advance(by: 1)
    #expect(log.all == ["first step@0", "woke@5", "its own task@5"])
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test func taskImmediateInASyncTestBody() {
    let scheduler = TestScheduler()
    let log = Log()
    Task.immediate {
      log.append("first step@\(scheduler.now)")
      try await ContinuousClock().sleep(for: .milliseconds(5))
      log.append("woke@\(scheduler.now)")
    }
    scheduler.advance(by: 4)
    #expect(log.all.last != "woke@4")
    scheduler.advance(by: 1)
    #expect(log.all == ["first step@0", "woke@5"])
  }

  /// A cache an app warms before it waits: an actor of its own.
  actor WarmingCache {
    private(set) var warmed: [String] = []
    func warm(_ name: String) { warmed.append(name) }
  }

  /// App code that starts a `Task.immediate` from a nonisolated function whose first `await` hops
  /// to an actor (issue 31.8).
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  nonisolated static func prefetch(_ name: String, into cache: WarmingCache, log: Log) {
    Task.immediate {
      await cache.warm(name)
      log.append("warmed")
      try await Task.sleep(for: .milliseconds(50))
      log.append("ready")
    }
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test(arguments: 0..<20)
  func taskImmediateWhoseFirstAwaitHopsToAnActorIsDriven(_ run: Int) async {
    let scheduler = TestScheduler()
    let log = Log()
    let cache = WarmingCache()
    if run.isMultiple(of: 2) { await Task.yield() }  // the test's code goes on in a job of its own
    Self.prefetch("swift", into: cache, log: log)
    scheduler.advance(by: 49)
    #expect(log.all == ["warmed"])
    scheduler.advance(by: 1)
    #expect(log.all == ["warmed", "ready"])
    #expect(await cache.warmed == ["swift"])
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @MainActor @Test(arguments: 0..<20)
  func taskImmediateWhoseFirstAwaitHopsToAnActorIsDrivenFromTheMainActor(_ run: Int) async {
    let scheduler = TestScheduler()
    let log = Log()
    await Task.yield()  // the test's code goes on in a job of its own
    Self.prefetch("swift", into: WarmingCache(), log: log)
    scheduler.advance(by: 49)
    #expect(log.all == ["warmed"])
    scheduler.advance(by: 1)
    #expect(log.all == ["warmed", "ready"])
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test func taskImmediateStartedByDrivenCode() {
    let scheduler = TestScheduler()
    let log = Log()
    scheduler.task {
      try await Task.sleep(for: .milliseconds(1))
      Task.immediate {
        log.append("first step@\(scheduler.now)")
        try await Task.sleep(for: .milliseconds(2))
        log.append("woke@\(scheduler.now)")
      }
      log.append("caller goes on@\(scheduler.now)")
    }
    scheduler.run()
    #expect(log.all == ["first step@1", "caller goes on@1", "woke@3"])
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test(arguments: 0..<20)
  func aMainActorModelsTaskImmediateWithAnInjectedClockFromANonisolatedTest(_ run: Int) async {
    let scheduler = TestScheduler()
    let loader = await ImmediateLoader(clock: scheduler.clock)
    await loader.load()
    #expect(await loader.state == "loading")
    scheduler.advance(by: 199)
    #expect(await loader.state == "loading")
    scheduler.advance(by: 1)
    #expect(await loader.state == "loaded")
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test(arguments: 0..<20)
  func aMainActorModelsBareTaskImmediateFromANonisolatedTest(_ run: Int) async {
    let scheduler = TestScheduler()
    let loader = await ImmediateLoader()
    await loader.load()
    #expect(await loader.state == "loading")
    scheduler.advance(by: 199)
    #expect(await loader.state == "loading")
    scheduler.advance(by: 1)
    #expect(await loader.state == "loaded")
    #expect(await loader.loads == 1)
  }

  // MARK: Awaits drive

  @Test func awaitingAScheduledTaskAsleepInVirtualTimeDrivesIt() async throws {
    let scheduler = TestScheduler()
    let task = scheduler.task(name: "the sleeper") {
      try await Task.sleep(for: .seconds(5))
      return "woke"
    }
    #expect(try await task.value == "woke")
    #expect(scheduler.now == 5000)
  }

  @Test func awaitingAPlainTaskAsleepInVirtualTimeDrivesIt() async throws {
    let scheduler = TestScheduler()
    let task = Task {
      try await ContinuousClock().sleep(for: .milliseconds(250))
      return "woke"
    }
    #expect(try await task.value == "woke")
    #expect(scheduler.now == 250)
  }

}

/// The search model with bare sleeps, tested as a newcomer writes it.
@MainActor @Suite struct BareSleepSearchViewModelTests {
  // snippet: async-bare-sleeps
  @MainActor @Test func theSearchHappensExactlyThreeHundredMillisecondsAfterTheLastKeystroke() {
    let scheduler = TestScheduler()
    let model = BareSleepSearchViewModel()
    model.query = "s"
    scheduler.advance(by: .milliseconds(100))
    model.query = "sw"
    scheduler.advance(by: .milliseconds(299))
    #expect(model.searchCount == 0, "nothing at 299 ms after the last keystroke")
    scheduler.advance(by: .milliseconds(1))
    #expect(model.searchCount == 1, "searched at 300 ms")
    #expect(model.results == [])
    scheduler.advance(by: .milliseconds(99))
    #expect(model.results == [])
    scheduler.advance(by: .milliseconds(1))
    #expect(model.results == ["swift", "swiftui", "sweet"])
    #expect(scheduler.now == 500)
    #expect(!scheduler.hasScheduledWork)
  }
  // snippet-end

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test func theObservationsOfItsResultsAreExactMarbles() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let model = BareSleepSearchViewModel()
    let results = scheduler.record(Observations { model.results.joined(separator: ",") })
    scheduler.schedule(at: 1) { MainActor.assumeIsolated { model.query = "m" } }
    scheduler.schedule(at: 2) { MainActor.assumeIsolated { model.query = "ma" } }
    scheduler.schedule(at: 8) { MainActor.assumeIsolated { model.query = "sw" } }
    scheduler.run()
    assertMarbles(
      results, "e-----a-----b",
      values: ["e": "", "a": "marbles,macros", "b": "swift,swiftui,sweet"])
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test(arguments: 0..<20)
  func aTaskImmediateModelWithAnInjectedClock(_ run: Int) {
    let scheduler = TestScheduler()
    let loader = ImmediateLoader(clock: scheduler.clock)
    loader.load()
    #expect(loader.state == "loading", "the first step ran in load()")
    scheduler.advance(by: 199)
    #expect(loader.state == "loading")
    scheduler.advance(by: 1)
    #expect(loader.state == "loaded")
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test(arguments: 0..<20)
  func aTaskImmediateModelWithABareSleep(_ run: Int) {
    // snippet: async-task-immediate
    let scheduler = TestScheduler()
    let loader = ImmediateLoader()
    loader.load()  // Task.immediate { state = "loading"; try await Task.sleep(for: 200 ms); … }
    #expect(loader.state == "loading")  // its first step ran in load()
    scheduler.advance(by: 199)
    #expect(loader.state == "loading")
    scheduler.advance(by: 1)
    #expect(loader.state == "loaded")
    // snippet-end
    #expect(!scheduler.hasScheduledWork)
  }
}

/// A thread-safe list of ticks.
final class Ticks: Sendable {
  private let storage = Mutex<[Int]>([])
  func append(_ tick: Int) { storage.withLock { $0.append(tick) } }
  var all: [Int] { storage.withLock { $0 } }
}
