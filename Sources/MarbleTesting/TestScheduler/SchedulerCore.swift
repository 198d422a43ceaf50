import CMarbleRuntime
@_spi(Internals) package import Signals
import Synchronization

/// The engine of a ``TestScheduler``: its clock, its queue of actions and its failures.
///
/// Everything a scheduler hands out — test signals, recorders, action handles — holds the core,
/// never the ``TestScheduler`` itself. So the strong references to a scheduler are the test's own
/// (and those of code under test that keeps it), and a scheduler whose test forgot to `flush()` is
/// released when the test ends and reports its unchecked expectations. Pending closures can form
/// cycles through the core; the scheduler's `deinit` empties the queue, which ends them.
///
/// The rules it keeps are documented on ``TestScheduler``.
package final class SchedulerCore: Scheduler {
  /// The length of one tick (and one marble frame).
  package let tick: Duration
  /// How many actions one `run()` or `advance` call may run before it gives up.
  package let stepLimit: Int
  let tickAttoseconds: Int128
  /// The tick in whole nanoseconds, if it is one (1 ms is): durations then convert with 64-bit
  /// arithmetic. `nil` for a tick with a fraction of a nanosecond.
  let tickNanoseconds: Int64?
  /// The scheduler this core belongs to, while it exists.
  private let owner = SlimWeakReference<TestScheduler>()

  struct State {
    /// The clock and the actions.
    var time: TimeQueue
    var isRunning = false
    var failures: [TestSchedulerFailure] = []
    /// How many of `failures` an assertion library has already reported.
    var reportedFailures = 0
  }

  let state: Locked<State>
  /// The earliest action's tick, read without the lock (``TimeQueue/EarliestAction``).
  let earliestAction = TimeQueue.EarliestAction()
  /// Runs the jobs of the tasks this scheduler drives.
  package let driver: TaskDriver
  /// The tasks started with `task(…)`.
  package let tasks = DrivenTasks()
  /// Where the scheduler was made, for reports that no assertion carries.
  package let site: SchedulerSite
  /// The recorders a test reads step by step, each checked for events never taken when the
  /// scheduler is released before it.
  let steppedRecorders = Locked<[ObjectIdentifier: @Sendable () -> (String, SchedulerSite)?]>([:])

  init(tick: Duration, stepLimit: Int, stallTimeout: Duration, site: SchedulerSite) {
    self.tick = tick
    self.stepLimit = stepLimit
    self.site = site
    state = Locked(State(time: TimeQueue(earliest: earliestAction)))
    tickAttoseconds = Self.attoseconds(tick)
    tickNanoseconds =
      tickAttoseconds % 1_000_000_000 == 0 && tickAttoseconds / 1_000_000_000 <= Int128(Int64.max)
      ? Int64(tickAttoseconds / 1_000_000_000) : nil
    let world = Self.drivesTasksFlag.load(ordering: .relaxed) ? World.forNewScheduler() : nil
    driver = TaskDriver(stallTimeout: stallTimeout, world: world)
    driver.attach(to: self)
    world?.push(driver)
  }

  /// Whether new schedulers drive the tasks of the test that made them (the `marbles` command's
  /// schedulers drive signals only: it sets this to `false` before making any).
  package static var drivesTasksByDefault: Bool {
    get { drivesTasksFlag.load(ordering: .relaxed) }
    set { drivesTasksFlag.store(newValue, ordering: .relaxed) }
  }

  private static let drivesTasksFlag = Atomic(true)

  /// Moves the clock to `tick`, under the state lock, and the virtual clock's readings with it.
  func setNow(_ tick: Int, in state: inout State) {
    guard tick != state.time.now else { return }
    state.time.now = tick
    driver.timeMoves.add(1, ordering: .relaxed)
    driver.clock.move(toNanoseconds: timelineNanoseconds(atTick: tick))
    if driver.schedule != nil { driver.tick.store(tick, ordering: .relaxed) }
  }

  /// The virtual time at `tick`: `tick` ticks after tick 0 (saturating).
  func elapsed(atTick tick: Int) -> Duration {
    let (product, overflow) = tickAttoseconds.multipliedReportingOverflow(by: Int128(tick))
    guard !overflow, product / 1_000_000_000_000_000_000 < Int128(Int64.max) else {
      return .seconds(Int64.max)
    }
    return .init(
      secondsComponent: Int64(product / 1_000_000_000_000_000_000),
      attosecondsComponent: Int64(product % 1_000_000_000_000_000_000))
  }

  /// The scheduler this core belongs to, or `nil` once it has been released.
  package var scheduler: TestScheduler? {
    owner.object
  }

  func adopt(by scheduler: TestScheduler) {
    owner.set(scheduler)
  }

  /// Whether the scheduler's world keeps this engine as its clock until it closes.
  var isKeptByItsWorld: Bool {
    driver.world?.keeps(self) ?? false
  }

  /// Empties the queue, releasing every pending closure (outside the lock).
  func removeAll() {
    let slots = state.withLock { $0.time.removeAll() }
    _ = slots
  }

  package var now: Int {
    state.withLock { $0.time.now }
  }

  var isIdle: Bool {
    state.withLock { $0.time.actions.isEmpty }
  }

  /// Whether a pending action has not been cancelled, or a job of a driven task is ready to run.
  /// O(n) in the queue's length at worst; stops at the first live action.
  package var hasLiveWork: Bool {
    driver.readyJobCount > 0 || state.withLock { $0.time.actions.containsLiveAction }
  }

  /// How many pending actions have not been cancelled, and jobs of driven tasks are ready to run.
  /// O(n) in the queue's length.
  package var liveActionCount: Int {
    state.withLock { state in state.time.actions.liveActionCount } + driver.readyJobCount
  }

  var pendingActionCount: Int {
    state.withLock { $0.time.actions.count }
  }

  var failures: [TestSchedulerFailure] {
    state.withLock { $0.failures }
  }

  package func takeUnreportedFailures() -> [TestSchedulerFailure] {
    state.withLock { state in
      defer { state.reportedFailures = state.failures.count }
      return Array(state.failures[state.reportedFailures...])
    }
  }

  /// `duration` in whole ticks, rounding up; zero or negative durations are 0 ticks.
  package func ticks(_ duration: Duration) -> Int {
    // NB: the fast path, for the durations time operators and Combine schedulers convert on every
    // action: whole nanoseconds of a whole-nanosecond tick, in 64 bits (a 128-bit division is a
    // library call).
    let (seconds, fraction) = duration.components
    if let tickNanoseconds, seconds >= 0, seconds < 9_000_000_000, fraction >= 0 {
      let nanoseconds = seconds * 1_000_000_000 + fraction / 1_000_000_000
      let roundsUp = fraction % 1_000_000_000 != 0
      guard nanoseconds > 0 || roundsUp else { return 0 }
      let (whole, rest) = nanoseconds.quotientAndRemainder(dividingBy: tickNanoseconds)
      return Int(whole + (rest > 0 || roundsUp ? 1 : 0))
    }
    let attoseconds = Self.attoseconds(duration)
    guard attoseconds > 0 else { return 0 }
    let ticks = (attoseconds + tickAttoseconds - 1) / tickAttoseconds
    return ticks > Int128(Int.max) ? Int.max : Int(ticks)
  }

  private static func attoseconds(_ duration: Duration) -> Int128 {
    let (seconds, attoseconds) = duration.components
    return Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
  }

  // MARK: Scheduling

  @discardableResult
  package func schedule(at time: Int, _ action: @escaping @Sendable () -> Void) -> any Disposable {
    enqueue(at: time, interval: nil, action)
  }

  /// Schedules the wake-up of the sleeping task `task` at `time`: an action like any other, which
  /// an explored schedule may run before the other actions due at that tick.
  ///
  /// The world's root is the exception (the same instant): its wake-up runs after every other
  /// action due at its tick — those scheduled later at that tick too — so a test that sleeps to
  /// an app's deadline sees the app's work at that instant done. No schedule reorders it.
  @discardableResult
  package func scheduleWakeUp(
    at time: Int, task: UInt64?, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    if let world = driver.world, world.isRoot(task) {
      return enqueue(at: time, interval: nil, isLast: true, action)
    }
    guard driver.schedule != nil, let task else { return enqueue(at: time, interval: nil, action) }
    let ordinal = driver.runOrdinal(of: task)
    let handle = enqueue(at: time, interval: nil, action)
    state.withLock { $0.time.tag(handle.id, as: .init(task: task, ordinal: ordinal)) }
    return handle
  }

  /// Schedules a repeating action first due at `time`, then every `interval` ticks.
  @discardableResult
  package func schedule(at time: Int, interval: Int, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    enqueue(at: time, interval: interval, action)
  }

  /// Runs one of the harness's actions — a recorder's subscription or disposal — at `time`.
  ///
  /// At or before the current tick, outside a run, it runs at once, in the caller, and so does the
  /// driven work it made ready (a sequence's iterating task, up to its first suspension), without
  /// moving the clock or running any other action: a recorder is subscribed when `record` returns,
  /// as Turbine's `test {}` is. Later — or when asked from inside a run — it is scheduled: at its
  /// tick it runs before every action that is not the harness's, whenever those were scheduled
  /// (RxJS's order: its `TestScheduler` sets hot observables up at `flush()`, after every
  /// `expectObservable` subscription).
  @discardableResult
  package func scheduleHarness(at time: Int, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    let isNow = state.withLock { !$0.isRunning && time <= $0.time.now }
    guard isNow else { return enqueue(at: time, interval: nil, isHarness: true, action) }
    action()
    runReadyJobs()
    return AnyDisposable {}
  }

  /// Runs the driven work that is ready now — no action, and the clock stays — unless a run is
  /// under way (which runs it before its next action anyway).
  private func runReadyJobs() {
    guard state.withLock({ !$0.isRunning }) else { return }
    _ = drain(through: Int.min)
  }

  @discardableResult
  package func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    enqueue(at: nil, interval: nil, action)
  }

  @discardableResult
  package func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    enqueue(at: nil, delay: ticks(delay), interval: nil, action)
  }

  @discardableResult
  package func schedule(
    after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    enqueue(at: nil, delay: ticks(delay), interval: max(1, ticks(interval)), action)
  }

  private func enqueue(
    at time: Int?, delay: Int = 0, interval: Int?, isHarness: Bool = false, isLast: Bool = false,
    _ body: @escaping @Sendable () -> Void
  ) -> ScheduledActionHandle {
    let (slot, id) = state.withLock {
      $0.time.add(
        at: time, delay: delay, interval: interval, isHarness: isHarness, isLast: isLast, body)
    }
    // Work scheduled from outside the world's own work may be what its waiting root needs.
    if let world = driver.world, TaskDriver.current == nil { world.wake() }
    return ScheduledActionHandle(state: state, slot: slot, id: id)
  }

  // MARK: Running

  func advance(by ticks: Int) -> RunResult {
    let target = state.withLock { $0.time.now.clampedAdding(max(0, ticks)) }
    return drain(through: target)
  }

  func advance(to time: Int) -> RunResult {
    drain(through: time)
  }

  func run() -> RunResult {
    drain(through: nil)
  }

  /// Runs like `run()`, but stops once `isDone` says so at the end of a tick: every action and
  /// ready job of the tick has run, and the clock stays there. `isDone` is asked, outside any
  /// lock, whenever the clock is about to move on, and before the first action.
  ///
  /// - Returns: What ran; the result is complete when `isDone` stopped it or no work was left.
  package func run(until isDone: () -> Bool) -> RunResult {
    drain(through: nil, stopsAtTickEnds: true, until: isDone)
  }

  private func drain(
    through limit: Int?, stopsAtTickEnds: Bool = false, until isDone: () -> Bool = { false }
  ) -> RunResult {
    let refusal = state.withLock { state -> TestSchedulerFailure? in
      guard state.isRunning else {
        state.isRunning = true
        return nil
      }
      let failure = TestSchedulerFailure(
        kind: .concurrentUse,
        message: "TestScheduler was asked to run actions while it was already running them — from "
          + "another thread, or from inside one of its own actions. Drive a test scheduler from one "
          + "thread, outside its actions.")
      state.failures.append(failure)
      return failure
    }
    if let refusal { return RunResult(actionsRun: 0, now: now, failure: refusal) }

    var budget = StepBudget()
    // The tasks whose jobs ran since the drain last found nothing to do: only they can have gone
    // to wait for an actor elsewhere meanwhile.
    var ran = TaskDriver.TasksRan()
    var isAtStepLimit = false
    var isMainActorUnavailable = false
    // NB: the thread runs this scheduler's work from here on, so that the tasks created and the
    // continuations resumed by its actions and jobs are driven by it (see `TaskDriver`).
    driver.drain {
      steps: while true {
        switch nextStep(
          through: limit, stopsAtTickEnds: stopsAtTickEnds, isDone: isDone, budget: &budget)
        {
        case .job(let job):
          if budget.isReached(by: self) {
            driver.putBack(job)
            isAtStepLimit = true
            break steps
          }
          budget.steps += 1
          let id = job.taskID
          guard driver.run(job) else {
            isMainActorUnavailable = true
            break steps
          }
          // NB: a task that ended is let go at once: a scheduler that starts a task every tick
          // kept every one it ever owned (1.5 KB each, 1.5 GB after a million ticks).
          if driver.forgetIfComplete(id), let id { ran.note(id) }
        case .action(let key, let body):
          body()
          budget.steps += 1
          finishAction(key)
        case .stepLimit:
          isAtStepLimit = true
          break steps
        case .tickEnd:
          break steps
        case .nothing:
          // Nothing left here — unless a task of this scheduler waits for an actor elsewhere.
          defer { ran.clear() }
          if driver.awaitsWorkInFlightElsewhere(among: ran) { continue }
          break steps
        }
      }
    }
    let actionsRun = budget.steps
    if isAtStepLimit {
      return RunResult(
        actionsRun: actionsRun, now: now,
        failure: stopAtStepLimit(actionsRun, by: budget.stop ?? .steps))
    }
    if isMainActorUnavailable {
      return RunResult(actionsRun: actionsRun, now: now, failure: stopForTheMainActor())
    }
    let now = state.withLock { state -> Int in
      if let limit { setNow(max(state.time.now, limit), in: &state) }
      state.time.running = nil
      state.isRunning = false
      return state.time.now
    }
    return RunResult(actionsRun: actionsRun, now: now, failure: nil)
  }

  /// After an action ran: a repeating one is rescheduled from its due time (keeping its slot, so
  /// the handle its scheduler holds keeps stopping it); a one-shot action's slot is freed.
  private func finishAction(_ key: ActionHeap.Key) {
    state.withLock { $0.time.finish(key) }
  }

  /// Runs the next live action, whatever its tick, moving the clock there: a step of the test's
  /// world while its root waits. Nothing runs while a call of the test drives the scheduler.
  ///
  /// - Returns: Whether an action ran.
  func runNextDueAction() -> Bool {
    let next = takeNextAction(through: nil, atLimit: false, unlessRunning: true)
    guard case .run(let key, let body) = next else { return false }
    runTaken(key, body)
    return true
  }

  /// Runs an action taken out of line for a step of the test's world, as its driver's work.
  func runTaken(_ key: ActionHeap.Key, _ body: @Sendable () -> Void) {
    driver.drain { body() }
    finishAction(key)
    state.withLock { $0.time.running = nil }
  }
}

extension Int {
  /// `self + other`, or `Int.max` where that would overflow.
  func clampedAdding(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}
