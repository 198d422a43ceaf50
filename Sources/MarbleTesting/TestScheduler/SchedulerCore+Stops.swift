import CMarbleRuntime
@_spi(Internals) import Signals

// Why a run stops or a scheduler's work is let go, and the failures that say so: the step limit
// and its time budget, a main actor that never came free, work nobody drove, a scheduler released.

extension SchedulerCore {
  /// Records a failure found outside any call — a world that could not go on — which its finder
  /// has reported already (`isReported`) or leaves to the next assertion.
  func record(_ failure: TestSchedulerFailure, isReported: Bool) {
    state.withLock { state in
      if isReported, state.reportedFailures == state.failures.count {
        state.failures.append(failure)
        state.reportedFailures += 1
      } else {
        state.failures.append(failure)
      }
    }
  }

  /// Which limit stopped a run.
  package enum StepLimitStop {
    /// ``stepLimit`` steps ran.
    case steps
    /// The default step limit's time budget ran out (``timeBudget``).
    case time
  }

  /// The default step limit carries a budget of real time as well: ten million steps take a
  /// minute in a debug build, and a test with an endless timer would keep its user waiting that
  /// long. Once a run has taken a million steps — far more than any test that ends needs — it
  /// stops when it has run this long. An explicit `stepLimit` other than the default is a number
  /// of steps only.
  package static let timeBudget = Duration.seconds(5)
  /// How many steps a run takes before the time budget applies.
  package static let stepsBeforeTheTimeBudget = 1_000_000
  /// How many steps a run takes before it reads the clock its time budget counts from: a
  /// reading of real time at every `advance` — and every time a world's root waits — costs more
  /// than the few milliseconds the first steps take, which the budget leaves out.
  static let stepsBeforeTheClock = 4_096

  /// Whether a run whose time budget began at `start` (real nanoseconds, ``realNanoseconds()``,
  /// read at its ``stepsBeforeTheClock``th step) must stop before its next step, having taken
  /// `steps`; and which limit stops it.
  package func stepLimitStop(after steps: Int, since start: Int64) -> StepLimitStop? {
    if steps >= stepLimit { return .steps }
    guard stepLimit == TestScheduler.defaultStepLimit, steps >= Self.stepsBeforeTheTimeBudget,
      steps & 4095 == 0
    else { return nil }
    return Self.realNanoseconds() - start >= Self.timeBudget.saturatingNanoseconds ? .time : nil
  }

  /// Real time, in nanoseconds, for ``stepLimitStop(after:since:)``.
  package static func realNanoseconds() -> Int64 {
    marbles_real_now(MARBLES_CLOCK_CONTINUOUS)
  }

  /// Which limit stopped a run, in words.
  package func stepLimitWords(_ stop: StepLimitStop) -> String {
    switch stop {
    case .steps:
      return "its stepLimit of \(stepLimit)"
    case .time:
      return "its time budget: the default stepLimit allows \(stepLimit) steps, or as many as "
        + "\(Self.timeBudget) of real time allow once \(Self.stepsBeforeTheTimeBudget) have run"
    }
  }

  /// What kept the scheduler going at its step limit, in words.
  func stepLimitCause() -> String {
    let readyJobs = driver.readyJobCount
    return state.withLock { state in
      let queue = state.time.actions
      let slots = queue.slots
      let pending = queue.pendingKeys.filter { !slots[$0.slot].isCancelled }
      let culprit = pending.max { slots[$0.slot].generation < slots[$1.slot].generation }
      if readyJobs > 0 {
        return "a driven task that keeps waking up without virtual time moving (\(readyJobs) of "
          + "its jobs ready) — a busy loop of Task.yield(), or tasks that keep resuming each other"
      }
      return culprit.map { queue.slots[$0.slot].culpritDescription(dueAt: $0.time) } ?? "none"
    }
  }

  /// Ends a call whose main-actor job the main queue did not take within the stall timeout.
  func stopForTheMainActor() -> TestSchedulerFailure {
    state.withLock { state in
      let failure = TestSchedulerFailure(
        kind: .mainActorUnavailable,
        message: "TestScheduler (made at \(site)) waited \(driver.stallTimeout) of real time at "
          + "tick \(state.time.now) for the main actor to run driven main-actor work, but the main "
          + "actor never came free. Is the test blocking it — a @MainActor test waiting on a lock "
          + "or a semaphore — while another thread drives the scheduler? Drive the scheduler from "
          + "the main actor, or leave the main actor free while another thread drives it.")
      state.failures.append(failure)
      state.time.running = nil
      state.isRunning = false
      return failure
    }
  }

  // MARK: Work nobody drives

  /// Gives up the driven work that has waited the stall timeout with no drain (the watchdog's
  /// call): records why, and lets the work go so that whoever awaits it stops waiting.
  func giveUpStalledWork() {
    var sleeping = driver.sleepingTasks
    var waiting = tasks.unfinished.map { task -> String in
      let named = "\(task.name) (started at tick \(task.startedAt))"
      if driver.isWaitingForTheMainActor(task.taskID) {
        return named + " waits for the main actor, which never came free"
      }
      guard let index = sleeping.firstIndex(where: { $0.taskID == task.taskID }) else {
        return named
      }
      defer { sleeping.remove(at: index) }
      return named + " sleeps until tick \(sleeping[index].wakeTick) in virtual time"
    }
    waiting += sleeping.map { sleep in
      "a driven task\(sleep.taskID.map { " (task \($0))" } ?? "") sleeps until tick "
        + "\(sleep.wakeTick) in virtual time"
    }
    let ready = driver.readyJobCount
    let failure = state.withLock { state in
      TestSchedulerFailure(
        kind: .undrivenWork,
        message: "TestScheduler (made at \(site)) has async work that nothing drove for "
          + "\(driver.stallTimeout) of real time, at tick \(state.time.now)"
          + (waiting.isEmpty ? "" : ": " + waiting.joined(separator: ", "))
          + " (\(ready) job\(ready == 1 ? "" : "s") ready to run). A test that awaits driven work "
          + "— the value of a scheduler.task, or of a Task the test started — must drive it "
          + "first: call scheduler.advance(by:), run() or flush() before the await. The work was "
          + "cancelled and let go, so that the test does not hang.")
    }
    driver.abandon(because: failure) {
      state.withLock { $0.failures.append(failure) }
    }
  }

  /// Lets the driven work go when the scheduler is released, so that nothing waits on it for
  /// ever.
  func release() {
    if let world = driver.world, world.keeps(self) { return }
    driver.world?.pop(driver)
    // NB: while this engine still holds the driver, which the registry names unretained.
    let tasks = Registry.shared.withLock { $0.forgetTasks(of: driver) }
    for task in tasks { Jobs.release(task.task) }
    driver.world?.keep(tasks)
    if driver.world == nil { driver.clock.release() }
    driver.abandon(
      because: TestSchedulerFailure(
        kind: .undrivenWork,
        message: "TestScheduler (made at \(site)) was released before it drove this work; it was "
          + "cancelled and let go."))
  }

  /// Ends a call that ran `stepLimit` actions with live work still due: records which action kept
  /// rescheduling.
  func stopAtStepLimit(_ actionsRun: Int, by stop: StepLimitStop) -> TestSchedulerFailure {
    let readyJobs = driver.readyJobCount
    let cause = stepLimitCause()
    return state.withLock { state in
      let slots = state.time.actions.slots
      let pending = state.time.actions.pendingKeys.filter { !slots[$0.slot].isCancelled }
      let failure = TestSchedulerFailure(
        kind: .stepLimitExceeded,
        message:
          "TestScheduler stopped after \(actionsRun) steps (\(stepLimitWords(stop)); "
          + "an action or a driven task's wake-up is a step) at tick \(state.time.now), with \(pending.count) actions "
          + "and \(readyJobs) jobs still pending. What kept it going: " + cause + ".")
      state.failures.append(failure)
      state.time.running = nil
      state.isRunning = false
      return failure
    }
  }
}
