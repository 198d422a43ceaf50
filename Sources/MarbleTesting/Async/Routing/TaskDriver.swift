import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// Runs the async work of one ``TestScheduler`` — its tasks' jobs — in virtual time, in the order
/// its choice point gives: inside `advance`, `run` and `flush`, and in its world's loop while the
/// test waits (``World``).
///
/// Jobs reach it two ways: the tasks its scheduler starts (`scheduler.task`, `record(sequence)`)
/// prefer it as their task executor (SE-0417), so their jobs — and their children's — are
/// enqueued here directly; every other job of its world comes through the runtime's hooks, which
/// ask ``Membership`` (the one routing decision). Its clock is its world's: every reading of time
/// in the work it runs is virtual, on the world's one timeline.
package final class TaskDriver: TaskExecutor {
  /// Where a ready job must run.
  package enum Target: Sendable {
    /// On the drain's thread, on the generic executor: a nonisolated job, or an actor's job.
    ///
    /// It runs on the generic executor, as it would without Marbles: on this driver as its task
    /// executor, a task that does not prefer it would hop at its next nonisolated call — one
    /// more job. Jobs its code enqueues on "the current executor" then reach the default
    /// executor, which must be ``SleepRouter`` for them to come back; where it is not, it runs on
    /// this driver.
    case global
    /// On the drain's thread, with this driver as the task's executor: a job of a task that
    /// prefers it (`scheduler.task`).
    case preferred
    /// On the main actor.
    case main
  }

  struct ReadyJob: Sendable {
    let job: UnownedJob
    let target: Target
    /// The id of the job's task, `nil` for a job that is no task's: read once, as it became
    /// ready (the runtime's call is no inline read, and the choice point asks for every job).
    let taskID: UInt64?
    /// Its task's number in the run (``runOrdinal(of:)``), noted under an explored schedule only:
    /// who the job is, for the choice point, the same in every run of the test.
    var ordinal: Int? = nil
    /// Whether it runs next with no choice, under an explored schedule too: it only goes on with
    /// what just ran, and running anything before it would be an order the runtime never makes
    /// visible (``TaskDriver/makeReady(_:on:isForced:)``).
    var isForced = false
    /// Whether it is a step of a sleep's wake-up task: the task it resumes goes next.
    var isWakeUp = false
  }

  /// The ready jobs, in the order they became ready.
  let ready = Locked(FIFOQueue<ReadyJob>())
  /// How many tasks the registry says this driver owns: a driver that owns none is never looked
  /// for among every owned task (``Registry/forgetTasks(of:)``).
  ///
  /// NB: touched only under the registry's lock.
  nonisolated(unsafe) var ownedTaskCount = 0
  /// How many jobs are ready: read without the lock, so that a drain with no async work checks
  /// for jobs without taking it between actions.
  let readyCount = Atomic(0)
  /// How long, in real time, work may wait for a drain — or a drain for the main actor — before
  /// it is given up and reported.
  package let stallTimeout: Duration
  /// What every reading of time in its work reads: its world's clock, or — for a scheduler with
  /// no world — a clock of its own.
  let clock: VirtualClockSlot
  /// The test's world this driver belongs to; `nil` for a scheduler that drives signals only
  /// (the `marbles` command's).
  let world: World?
  /// What the watchdog, the reports and the release of the scheduler look at.
  let watch = Locked(Watch())
  /// How many drains have begun: the watchdog sees progress when it changes.
  let drains = Atomic(0)
  /// How many drains run now (nested ones count): read by the watchdog and by a give-up, which a
  /// drain in progress prevents.
  let drainDepth = Atomic(0)

  /// Whether a drain runs now.
  var isDraining: Bool { drainDepth.load(ordering: .sequentiallyConsistent) > 0 }
  /// Whether the driver has let its work go; read by the routing decision without a lock.
  let isAbandoned = Atomic(false)
  /// How many standard sleeps are pending: read without a lock by ``makeReady(_:on:)``.
  let standardSleepCount = Atomic(0)
  /// The task whose step runs now, or 0.
  let stepTask = Atomic<UInt64>(0)
  /// Whether the step running now is a sleep's wake-up task's (``ReadyJob/isWakeUp``).
  let stepIsAWakeUp = Atomic(false)
  /// The thread running a step of the world's loop under an explored schedule now, or 0: that
  /// step's hops onto and off actors are enqueued, each a choice (``isAHopOfTheRunningStep(_:on:)``).
  let threadWhoseHopsAreChoices = Atomic<UInt>(0)
  /// The wake-up jobs of sleeps cancelled by this driver's work, freed when that work's job
  /// returns (``freeEndedSleep(_:)``).
  private let endedSleepWakes = Locked<[UnownedJob]>([])
  /// How many of them wait: read without the lock after every job.
  private let endedSleepWakeCount = Atomic(0)
  /// The engine of the scheduler this driver belongs to (set once, by ``attach(to:)``).
  private let owner = SlimWeakReference<SchedulerCore>()

  struct Watch {
    /// Why the driver let its work go, once it has.
    var abandonment: TestSchedulerFailure?
    /// The tasks asleep on the scheduler's clock, which a give-up wakes.
    var sleeps: [ObjectIdentifier: any AbandonableSleep] = [:]
    /// The tasks asleep on a standard clock, by task — to end one early when its task comes back
    /// first (cancelled) — which a give-up wakes too.
    var standardSleeps: [UInt64: StandardSleep] = [:]
    /// The tasks whose main-actor job a drain stopped waiting for, because the main actor never
    /// came free, and that has not run yet.
    var waitingForTheMainActor: Set<UInt64> = []
    /// What driven work did outside virtual time (a resumption from a real clock, a queue, a
    /// thread, a Dispatch timer source), to name it in reports.
    var notes: [String] = []
    /// How many of `notes` a report has named.
    var notesNamed = 0
    /// When the watchdog first saw the driver's work waiting with no drain, and the drain count
    /// then.
    var stalledSince: (at: ContinuousClock.Instant, drains: Int)?
  }

  /// The schedule this driver's choices follow when a test explores schedules; FIFO without one.
  let schedule: ScheduleRun? = {
    let schedule = ScheduleRun.forNewScheduler
    schedule?.noteFollowed()
    return schedule
  }()
  /// The scheduler's tick, kept for the schedule's lanes (read without a lock).
  let tick = Atomic(0)
  /// Where the scheduler's tick 0 falls on its world's timeline, in nanoseconds from the world's
  /// first scheduler's tick 0: set once, when the world takes the scheduler.
  let origin = Atomic<Int64>(0)
  /// How many times the scheduler's clock has moved: a world whose clocks do not move while it
  /// runs step after step is livelocked.
  let timeMoves = Atomic(0)

  /// - Parameters:
  ///   - stallTimeout: See ``stallTimeout``.
  ///   - world: The world it joins, or `nil` for a scheduler that drives signals only.
  package init(stallTimeout: Duration, world: World?) {
    self.stallTimeout = stallTimeout
    self.world = world
    numberedBefore = schedule == nil ? 0 : world?.numberedTasks ?? 0
    if let world {
      clock = world.clock
    } else {
      clock = VirtualClockSlot()
      clock.setFrozenLimit(stallTimeout)
    }
  }

  /// How many tasks the world had numbered when this driver was made: an explored schedule's
  /// tasks are numbered from there, so that the same test numbers them alike in every run, in a
  /// world that several runs share.
  private let numberedBefore: Int

  /// Task `id`'s number in this driver's run — creation order, from 1 — under an explored
  /// schedule; `nil` without one, or for a task the world numbered before the driver was made.
  ///
  /// - Parameter known: The task's number in the world, where the caller read it already (the
  ///   routing decision, from the registry's entry it decided by): no second look.
  func runOrdinal(of id: UInt64, known: Int? = nil) -> Int? {
    guard schedule != nil, let ordinal = known ?? world?.ordinal(of: id), ordinal > numberedBefore
    else {
      return nil
    }
    return ordinal - numberedBefore
  }

  /// The engine of the scheduler this driver belongs to, if it still exists.
  var core: SchedulerCore? {
    owner.object
  }

  /// Sets the engine, once: the one that made this driver.
  func attach(to core: SchedulerCore) {
    owner.set(core)
  }

  // MARK: The driver whose work this thread runs

  /// Runs `body` with this driver recorded as the one whose work this thread is running, so that
  /// the jobs enqueued meanwhile come here and every reading of time is the scheduler's.
  package func withCurrentDriver<Result>(_ body: () throws -> Result) rethrows -> Result {
    defer { freeEndedSleeps() }
    return try ThreadSlot.running(UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque())) {
      try clock.reading(body)
    }
  }

  /// Frees the state of a sleep that its task's cancellation ended, by running its wake-up job
  /// (which resumes nothing then): once the job of this driver's work that cancelled it returns,
  /// on its thread — not in the middle of the cancellation, which holds the cancelled task's
  /// status lock — and not on the runtime's executor, whose thread would have to be woken.
  func freeEndedSleep(_ wake: UnownedJob) {
    endedSleepWakes.withLock { $0.append(wake) }
    endedSleepWakeCount.add(1, ordering: .releasing)
  }

  deinit {
    // NB: a wake-up left by work that never returned to this driver goes where it would have.
    for wake in endedSleepWakes.withLock({ $0 }) { Jobs.enqueueGlobal(wake) }
  }

  private func freeEndedSleeps() {
    while endedSleepWakeCount.load(ordering: .acquiring) > 0 {
      let wakes = endedSleepWakes.withLock { wakes -> [UnownedJob] in
        defer { wakes.removeAll() }
        return wakes
      }
      endedSleepWakeCount.subtract(wakes.count, ordering: .releasing)
      for wake in wakes { ThreadSlot.bypassing { Jobs.runOnGenericExecutor(wake) } }
    }
  }

  /// Makes this driver's the work of the job running on this thread, until that job ends: the
  /// job of `task` (with `nil`, the code running while no task is current) — the root's job that
  /// opened the world, which runs on a thread of its own, or a synchronous scope.
  func enterRunningJob(of task: MarblesJobRef?) {
    let isInARun = ThreadSlot.enter(
      UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()),
      forTask: task.map { UnsafeRawPointer($0) })
    if isInARun {
      clock.enterRun()
    } else {
      clock.enterRunningJob(of: task.map { UnsafeRawPointer($0) })
    }
  }

  /// Ends ``enterRunningJob(of:)`` on this thread.
  func leaveRunningJob() {
    ThreadSlot.leave()
    VirtualClockSlot.leaveRunningJob()
    freeEndedSleeps()
  }

  /// The driver whose work this thread is running, if any.
  static var current: TaskDriver? {
    guard let pointer = ThreadSlot.runningDriver else { return nil }
    return Unmanaged<TaskDriver>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// The driver of the task being switched onto an actor's queue on this thread, if any (see
  /// ``ThreadSlot/driverOfTaskInTransit``).
  static var ofTaskInTransit: TaskDriver? {
    guard let pointer = ThreadSlot.driverOfTaskInTransit else { return nil }
    return Unmanaged<TaskDriver>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Marks a drain's start and end, which the watchdog counts as progress.
  func drain<Result>(_ body: () throws -> Result) rethrows -> Result {
    // NB: atomics, not the watch's lock: a drain runs for every job the world's loop steps. The
    // watchdog sees the new drain count, and forgets the stall it was timing.
    drains.add(1, ordering: .relaxed)
    drainDepth.add(1, ordering: .sequentiallyConsistent)
    defer { drainDepth.subtract(1, ordering: .sequentiallyConsistent) }
    return try withCurrentDriver(body)
  }

}
