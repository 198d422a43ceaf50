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
/// ask ``Routing`` (the one routing decision). Its clock is the scheduler's virtual clock: every
/// reading of time in the work it runs is virtual.
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
    /// Its task's number in the run (``runOrdinal(of:)``), noted under an explored schedule only:
    /// who the job is, for the choice point, the same in every run of the test.
    var ordinal: Int? = nil
  }

  /// The ready jobs, in the order they became ready.
  private let ready = Locked(FIFOQueue<ReadyJob>())
  /// How many jobs are ready: read without the lock, so that a drain with no async work checks
  /// for jobs without taking it between actions.
  private let readyCount = Atomic(0)
  /// How long, in real time, work may wait for a drain — or a drain for the main actor — before
  /// it is given up and reported.
  package let stallTimeout: Duration
  /// The scheduler's virtual clock: what every reading of time in its work reads.
  let clock = VirtualClockSlot()
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
  private let stepTask = Atomic<UInt64>(0)
  /// The wake-up jobs of sleeps cancelled by this driver's work, freed when that work's job
  /// returns (``freeEndedSleep(_:)``).
  private let endedSleepWakes = Locked<[UnownedJob]>([])
  /// How many of them wait: read without the lock after every job.
  private let endedSleepWakeCount = Atomic(0)
  /// The engine of the scheduler this driver belongs to, while it exists.
  private let owner = Locked(WeakCore())

  struct WeakCore {
    weak var core: SchedulerCore?
  }

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
  let schedule = ScheduleRun.forNewScheduler
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
    clock.setFrozenLimit(stallTimeout)
  }

  /// How many tasks the world had numbered when this driver was made: an explored schedule's
  /// tasks are numbered from there, so that the same test numbers them alike in every run, in a
  /// world that several runs share.
  private let numberedBefore: Int

  /// Task `id`'s number in this driver's run — creation order, from 1 — under an explored
  /// schedule; `nil` without one, or for a task the world numbered before the driver was made.
  func runOrdinal(of id: UInt64) -> Int? {
    guard schedule != nil, let ordinal = world?.ordinal(of: id), ordinal > numberedBefore else {
      return nil
    }
    return ordinal - numberedBefore
  }

  /// The engine of the scheduler this driver belongs to, if it still exists.
  var core: SchedulerCore? {
    owner.withLock { $0.core }
  }

  func attach(to core: SchedulerCore) {
    owner.withLock { $0.core = core }
  }

  // MARK: Ready jobs

  /// Takes a job of a task that prefers this executor.
  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if let id = Jobs.taskID(of: job) {
      let ref = unsafeBitCast(job, to: MarblesJobRef.self)
      Registry.shared.withLock { $0.own(id, task: ref, by: self) }
      world?.number(id)
    }
    if TaskDriver.current == nil { noteResumptionFromOutside() }
    makeReady(job, on: .preferred)
  }

  /// Notes that a driven task was resumed by code that is neither driven work nor the test's.
  func noteResumptionFromOutside() {
    note(
      "a driven task was resumed from outside virtual time, by code the scheduler does not "
        + "drive — a thread, a Dispatch queue, an actor with an executor of its own")
  }

  /// Makes a job ready to run at the scheduler's next drain — or, once the driver has let its
  /// work go, sends it where it would have gone.
  func makeReady(_ job: UnownedJob, on target: Target) {
    // NB: only a cancelled task comes back before its sleep's tick; the status flag spares every
    // other job the sleeps' lock.
    if standardSleepCount.load(ordering: .acquiring) > 0, Jobs.isCancelledTask(job) {
      endStandardSleepEarly(of: job)
    }
    let isContinued = continuesTheRunningStep(job, on: target)
    let ordinal = schedule == nil ? nil : Jobs.taskID(of: job).flatMap { runOrdinal(of: $0) }
    let isAbandoned = ready.withLock { ready -> Bool in
      // NB: read under the ready lock, which a give-up holds while it sets the flag and empties
      // the queue, so that no job is left behind.
      guard !self.isAbandoned.load(ordering: .acquiring) else { return true }
      let readyJob = ReadyJob(job: job, target: target, ordinal: ordinal)
      if isContinued {
        ready.pushFirst(readyJob)
      } else {
        ready.append(readyJob)
      }
      readyCount.add(1, ordering: .releasing)
      return false
    }
    if isAbandoned {
      Self.release(ReadyJob(job: job, target: target), cancelling: false)
      return
    }
    guard let world, world.hasTaskRoot else { return }
    if world.isRoot(Jobs.taskID(of: job)) {
      world.rootJobIsReady()
    } else {
      world.wake()
    }
  }

  /// How many jobs are ready to run.
  package var readyJobCount: Int {
    readyCount.load(ordering: .acquiring)
  }

  /// Takes the next ready job, if any: the first in line, or under an explored schedule the one
  /// it chooses (`takeChosen(racing:by:)`).
  func takeReadyJob() -> ReadyJob? {
    guard readyCount.load(ordering: .acquiring) > 0 else { return nil }
    if let schedule {
      guard case .job(let job) = takeChosen(racing: [], by: schedule) else { return nil }
      return job
    }
    return ready.withLock { ready in
      let job = ready.popFirst()
      if job != nil { readyCount.subtract(1, ordering: .releasing) }
      return job
    }
  }

  /// Runs `body` on the ready jobs, under their lock, keeping the count in step with what it
  /// takes (for the choice point).
  func readyQueue<Result>(_ body: (inout FIFOQueue<ReadyJob>) -> Result) -> Result {
    ready.withLock { ready in
      let before = ready.count
      let result = body(&ready)
      let taken = before - ready.count
      if taken > 0 { readyCount.subtract(taken, ordering: .releasing) }
      return result
    }
  }

  /// Puts a job taken but not run back, first in line.
  func putBack(_ job: ReadyJob) {
    ready.withLock { ready in
      ready.pushFirst(job)
      readyCount.add(1, ordering: .releasing)
    }
  }

  /// Takes every ready job, for a give-up.
  func takeEveryReadyJob(_ body: () -> Bool) -> [ReadyJob]? {
    ready.withLock { ready -> [ReadyJob]? in
      guard body() else { return nil }
      var jobs: [ReadyJob] = []
      while let job = ready.popFirst() { jobs.append(job) }
      readyCount.store(0, ordering: .releasing)
      return jobs
    }
  }

  /// Runs a ready job: on this thread, or on the main actor. Call it inside
  /// ``withCurrentDriver(_:)``.
  ///
  /// - Returns: `false` if the job is bound for the main actor and the main queue did not take it
  ///   within ``stallTimeout``; it then runs whenever the main queue comes free.
  func run(_ ready: ReadyJob, waitsForever: Bool = false) -> Bool {
    let job = ready.job
    stepTask.store(Jobs.taskID(of: job) ?? 0, ordering: .relaxed)
    switch ready.target {
    case .global where DefaultExecutor.isRouting:
      Jobs.runOnGenericExecutor(job)
    case .global, .preferred:
      job.runSynchronously(on: asUnownedTaskExecutor())
    case .main where MainQueue.isCurrent:
      job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
    case .main:
      let task = Jobs.taskID(of: job)
      guard !waitsForever else {
        // The test's own job on the main actor: it takes as long as it takes.
        let done = DispatchSemaphore(value: 0)
        RealTime.reading {
          DispatchQueue.main.async {
            self.withCurrentDriver {
              job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
            }
            RealTime.reading { _ = done.signal() }
          }
          done.wait()
        }
        return true
      }
      let ran = onTheMainQueue {
        job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
      } stopsWaiting: {
        // The job runs whenever the main queue comes free; until then its task is stuck on the
        // main actor, which every report of it says.
        if let task { _ = watch.withLock { $0.waitingForTheMainActor.insert(task) } }
      } runsLate: {
        if let task { _ = self.watch.withLock { $0.waitingForTheMainActor.remove(task) } }
      }
      return ran
    }
    return true
  }

  /// Runs `work` as this driver's on the main queue, from a drain on another thread, and waits for
  /// it — at most ``stallTimeout`` of real time.
  ///
  /// - Parameters:
  ///   - stopsWaiting: Called if the wait ends first (the main queue stayed busy).
  ///   - runsLate: Called if `work` runs after the wait ended.
  /// - Returns: Whether `work` ran within the wait.
  func onTheMainQueue(
    _ work: @escaping @Sendable () -> Void, stopsWaiting: () -> Void = {},
    runsLate: @escaping @Sendable () -> Void = {}
  ) -> Bool {
    onQueue(
      { work in RealTime.reading { DispatchQueue.main.async(execute: work) } }, work,
      stopsWaiting: stopsWaiting, runsLate: runsLate)
  }

  /// Runs `work` as this driver's where `submit` sends it, and waits for it — at most
  /// ``stallTimeout`` of real time.
  func onQueue(
    _ submit: (@escaping @Sendable () -> Void) -> Void, _ work: @escaping @Sendable () -> Void,
    stopsWaiting: () -> Void = {}, runsLate: @escaping @Sendable () -> Void = {}
  ) -> Bool {
    let done = DispatchSemaphore(value: 0)
    // Whether the work has run, and whether the drain stopped waiting for it.
    let handOff = Locked((ran: false, gaveUp: false))
    submit {
      self.withCurrentDriver(work)
      let isLate = handOff.withLock { handOff in
        handOff.ran = true
        return handOff.gaveUp
      }
      if isLate { runsLate() }
      RealTime.reading { _ = done.signal() }
    }
    let isDone = RealTime.reading {
      done.wait(timeout: RealTime.deadline(after: stallTimeout)) == .success
    }
    guard isDone else {
      let isLate = handOff.withLock { handOff in
        handOff.gaveUp = true
        return !handOff.ran
      }
      if isLate { stopsWaiting() }
      return !isLate
    }
    return true
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

  /// Whether `job` continues, on the generic executor, the step of its task running now: the task
  /// is leaving the main actor or an actor (a hop). Such a job runs next, before the jobs already
  /// ready, as the global executor would start it at once.
  private func continuesTheRunningStep(_ job: UnownedJob, on target: Target) -> Bool {
    guard target != .main, TaskDriver.current === self, let id = Jobs.taskID(of: job) else {
      return false
    }
    return id == stepTask.load(ordering: .relaxed)
  }

  /// Whether task `id`'s main-actor job waits for a main actor that never came free.
  package func isWaitingForTheMainActor(_ id: UInt64?) -> Bool {
    guard let id else { return false }
    return watch.withLock { $0.waitingForTheMainActor.contains(id) }
  }

  /// Notes something driven work did outside virtual time, once.
  func note(_ note: String) {
    watch.withLock { watch in
      if !watch.notes.contains(note) { watch.notes.append(note) }
    }
    schedule?.noteUncontrolled(note)
  }

  /// What driven work did outside virtual time.
  package var notes: [String] {
    noteBlockingWaitsOnTheClock()
    return watch.withLock { $0.notes }
  }

  /// The notes no report has named yet, marking them named.
  package func takeUnnamedNotes() -> [String] {
    noteBlockingWaitsOnTheClock()
    return watch.withLock { watch in
      defer { watch.notesNamed = watch.notes.count }
      return Array(watch.notes.dropFirst(watch.notesNamed))
    }
  }

  /// Notes a thread of driven work that read one virtual instant for longer than the stall
  /// timeout — a blocking wait on the clock, which virtual time cannot end while it blocks — and
  /// whose readings therefore moved on in real time.
  private func noteBlockingWaitsOnTheClock() {
    guard let thawedAt = clock.lastThawedAt, let core else { return }
    note(
      "a blocking wait read the clock at tick \(core.ticks(thawedAt)) for longer than the stall "
        + "timeout (\(stallTimeout) of real time) — Thread.sleep, or a loop waiting for the clock "
        + "to pass a time — and virtual time cannot move while it blocks, so its readings moved "
        + "on in real time until it ended; use a standard sleep (Task.sleep) in driven work")
  }

  /// Sends a job where it would have gone without the driver, cancelling its task first if asked.
  static func release(_ ready: ReadyJob, cancelling: Bool) {
    if cancelling { Jobs.cancelTask(of: ready.job) }
    switch ready.target {
    case .global, .preferred: Jobs.enqueueGlobal(ready.job)
    case .main: MainActorRouter.enqueueOnMainQueue(ready.job)
    }
  }

  /// The tasks whose jobs a drain ran, unfinished, since it last looked for work queued on an
  /// actor elsewhere: by id up to a bound, past it every task the driver owns — so that a long
  /// drain (a million tasks in one `advance`) keeps no list that long.
  struct TasksRan {
    private(set) var ids: [UInt64] = []
    private(set) var isEveryTask = false
    private static let bound = 1_024

    var isEmpty: Bool { !isEveryTask && ids.isEmpty }

    mutating func note(_ id: UInt64) {
      guard !isEveryTask, ids.last != id else { return }
      if ids.count < Self.bound {
        ids.append(id)
      } else {
        isEveryTask = true
        ids = []
      }
    }

    mutating func clear() {
      ids.removeAll(keepingCapacity: true)
      isEveryTask = false
    }
  }

  /// Waits, in real time, while a task of this driver waits its turn on an actor that runs work
  /// outside the drain — an actor instance another test shares, whose queue that test's drain
  /// runs — and while such a task then runs there, until one of its jobs is ready again, nothing
  /// of it is in flight, or ``stallTimeout`` passes: a drain must not end while its own work is
  /// under way elsewhere (a test that shares an actor with the tests beside it saw its tasks
  /// unfinished when `run()` returned, and its schedule 0 fail).
  ///
  /// - Parameter ran: The tasks whose jobs ran since the drain last looked: no other task can
  ///   have gone to an actor meanwhile. (Every owned task, looked at by every `advance`, made a
  ///   thousand sleepers' thousand advances take 20 ms instead of 5.)
  /// - Returns: Whether a job is ready.
  func awaitsWorkInFlightElsewhere(among ran: TasksRan) -> Bool {
    guard world != nil, !ran.isEmpty else { return false }
    // NB: read once something is in flight: every drain ends here.
    var deadline: Int64?
    var pause = Duration.microseconds(10)
    /// The tasks seen waiting for an actor: while one then runs, it is still in flight.
    var queued: Set<UInt64> = []
    while readyJobCount == 0 {
      let isInFlight = Registry.shared.withLock { registry in
        var isInFlight = false
        let tasks =
          ran.isEveryTask
          ? registry.tasks(of: self)
          : ran.ids.compactMap { id in registry.task(id, ownedBy: self).map { (id, $0) } }
        for (id, task) in tasks {
          let status = Jobs.status(of: task)
          if status.isComplete { continue }
          if status.isEnqueued, status.dependency == .executor {
            queued.insert(id)
            isInFlight = true
          } else if status.isRunning, queued.contains(id) {
            isInFlight = true
          }
        }
        return isInFlight
      }
      guard isInFlight else { break }
      let now = SchedulerCore.realNanoseconds()
      let end = deadline ?? now &+ stallTimeout.saturatingNanoseconds
      deadline = end
      guard now < end else { break }
      Platform.sleep(pause)
      pause = min(pause * 2, .milliseconds(1))
    }
    return readyJobCount > 0
  }

  /// Forgets task `id` if it completed: its last job ran.
  ///
  /// - Returns: Whether the task is one this driver may still have to wait for: owned by it,
  ///   and not complete.
  @discardableResult
  func forgetIfComplete(_ id: UInt64?) -> Bool {
    guard let id else { return false }
    let (task, isLive) = Registry.shared.withLock { registry -> (MarblesJobRef?, Bool) in
      guard let entry = registry.owners[id] else { return (nil, false) }
      guard Jobs.status(of: entry.task).isComplete else { return (nil, entry.driver === self) }
      return (registry.forget(id), false)
    }
    guard let task else { return isLive }
    Jobs.release(task)
    world?.forgetNumber(of: id)
    return false
  }

  /// Whether a task's main-actor job waits for a main actor that never came free.
  var hasTasksWaitingForTheMainActor: Bool {
    watch.withLock { !$0.waitingForTheMainActor.isEmpty }
  }
}
