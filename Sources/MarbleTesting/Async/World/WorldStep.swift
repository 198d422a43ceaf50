import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// The world-level step, decided in one place: what the world does next while its root waits —
/// run a ready job, run the next due action (moving time), wait for outside help, or give up (a
/// deadlock, a livelock, a step limit). Which ready job or due action goes first is asked of
/// `NextStep` (the one choice point, for the world's loop and for a scheduler's own drains alike);
/// the loop around it (`World+Loop.swift`) only carries the decision out.
extension World {
  /// What the loop does next.
  enum Move {
    case stop
    case waitForTheRootToSuspend
    case step(Step)
  }

  /// A step the loop takes, as the world's state stood when it was counted.
  struct Step {
    /// The schedulers, bottom first.
    var drivers: [TaskDriver]
    /// The scheduler on top of the root's stack.
    var top: TaskDriver?
    /// The steps since the root last ran, this one included.
    var steps: Int
    /// When the step limit's time budget began (``countStep(in:)``).
    var since: Int64
    /// The steps since the world's time last moved, this one included, and when a livelock's
    /// time budget began.
    var stepsAtOneTime: Int
    var stepsAtOneTimeSince: Int64
  }

  /// What the loop does next; a step is counted as it is decided, under the same lock.
  func nextMove() -> Move {
    state.withLock { state -> Move in
      if state.isClosed || state.hasRootFinished || state.hasGivenUp {
        state.isLoopActive = false
        return .stop
      }
      state.hasNews = false
      if state.isRootRunningElsewhere { return .waitForTheRootToSuspend }
      countStep(in: &state)
      return .step(
        Step(
          drivers: state.drivers, top: state.rootStack.last ?? state.drivers.first,
          steps: state.stepsSinceRoot, since: state.stepsSinceRootStart,
          stepsAtOneTime: state.stepsAtOneTime, stepsAtOneTimeSince: state.stepsAtOneTimeStart))
    }
  }

  /// What a step on the main thread leaves to the loop's own thread.
  enum Leaving {
    /// Nothing: the loop stays on the main thread.
    case nothing
    /// The next decision: nothing is ready or due (the idle decision), or the root finished.
    case theNextDecision
    /// The root's job bound off the main actor in a world its test framework closes, where the
    /// root runs the framework's own code after the test's body: it runs where it would have
    /// run, on the loop's thread, and the loop goes on there. (Run on the main thread, that code
    /// waited long enough, in a parallel run, to be taken for a deadlock.) In a world of
    /// `withVirtualTime` or the trait, which closes when the body returns, the root's every job
    /// is the test's, and runs on the main thread with the rest.
    case theRootsJob(TaskDriver.ReadyJob, TaskDriver)
  }

  /// One step on the loop's own thread: a ready job, else (the root waits) the next due action,
  /// else the idle decision.
  func step(_ next: Step) {
    // NB: the root may have finished inside another task's job (``runHere(_:of:isRoot:)``), on
    // the main thread too, which leaves the close to this thread.
    if closeIfRootFinished() { return }
    switch step(next, isOnTheMainThread: false) {
    case .nothing, .theNextDecision: return
    case .theRootsJob(let job, let driver): _ = run(job, of: driver)
    }
  }

  /// One step, on the loop's own thread or — for a `@MainActor` root — on the main thread, where
  /// the idle decision and the root's jobs bound elsewhere are left to the loop's thread.
  ///
  /// NB: every step counts, jobs too (tasks that keep resuming each other), until the root runs.
  func step(_ next: Step, isOnTheMainThread: Bool) -> Leaving {
    let drivers = next.drivers
    guard let top = next.top, let core = top.core else {
      if !isOnTheMainThread { park() }
      return .theNextDecision
    }
    if let limit = limitReached(core: core, next) {
      giveUp(because: limit.report, isLivelock: limit.isLivelock)
      return .theNextDecision
    }
    for driver in drivers.reversed() {
      let job: TaskDriver.ReadyJob
      if driver === top {
        // Under an explored schedule, an action due now races the top's ready jobs.
        switch core.nextReadyStep() {
        case .job(let ready): job = ready
        case .ranAction: return .nothing
        case .nothing: continue
        }
      } else {
        guard let ready = driver.takeReadyJob() else { continue }
        job = ready
      }
      if isOnTheMainThread, opening != .scope, job.target != .main, isRoot(job.taskID) {
        return .theRootsJob(job, driver)
      }
      return run(job, of: driver, isOnTheMainThread: isOnTheMainThread)
        ? .nothing : .theNextDecision
    }
    switch moveTime(top: top, drivers: drivers) {
    case .moved: return .nothing
    case .blocksPending:
      if !isOnTheMainThread { waitForBlocks(top: top) }
    case .nothingDue:
      if !isOnTheMainThread { idle(top: top) }
    }
    return .theNextDecision
  }

  /// Which limit a step reached, if any: the step budget without the world's time moving (a
  /// livelock), or without the root running (a step limit).
  func limitReached(core: SchedulerCore, _ next: Step) -> (report: String, isLivelock: Bool)? {
    if let stop = core.stepLimitStop(
      after: next.stepsAtOneTime - 1, since: next.stepsAtOneTimeSince)
    {
      return (livelockReport(core: core, stop: stop, steps: next.stepsAtOneTime - 1), true)
    }
    if let stop = core.stepLimitStop(after: next.steps - 1, since: next.since) {
      return (stepLimitReport(core: core, stop: stop, steps: next.steps - 1), false)
    }
    return nil
  }

  /// What moving time did, when no job of the world was ready.
  enum TimeMove {
    /// The next due action ran, its scheduler's clock (and the others') at its time.
    case moved
    /// A Dispatch block of the world has not run yet: runnable work, never a reason to move
    /// time; the world waits for it.
    case blocksPending
    /// Nothing of the world is due: the idle decision.
    case nothingDue
  }

  /// Moves the world's time to its next due action and runs it — unless a Dispatch block of the
  /// world has not run yet.
  func moveTime(top: TaskDriver, drivers: [TaskDriver]) -> TimeMove {
    if hasPendingBlocks || jobsUnderWay.load(ordering: .acquiring) > 0 {
      return .blocksPending
    }
    return runNextDueAction(top: top, drivers: drivers) ? .moved : .nothingDue
  }

  /// Counts a step since the root last ran; the step limit's time budget counts from the
  /// ``SchedulerCore/stepsBeforeTheClock``th.
  ///
  /// Also the steps since the world's time last moved (a livelock's count), which the root's own
  /// steps do not reset: a root that spins on zero-length sleeps keeps running, and time never
  /// moves.
  func countStep(in state: inout State) {
    state.stepsSinceRoot += 1
    if state.stepsSinceRoot == SchedulerCore.stepsBeforeTheClock {
      state.stepsSinceRootStart = SchedulerCore.realNanoseconds()
    }
    var moves = 0
    for driver in state.drivers { moves &+= driver.timeMoves.load(ordering: .relaxed) }
    if moves != state.timeMovesSeen {
      state.timeMovesSeen = moves
      state.stepsAtOneTime = 0
      if !state.jobsAtOneTime.isEmpty { state.jobsAtOneTime = [:] }
    }
    state.stepsAtOneTime += 1
    if state.stepsAtOneTime == SchedulerCore.stepsBeforeTheClock {
      state.stepsAtOneTimeStart = SchedulerCore.realNanoseconds()
    }
  }
}
