import CMarbleDriving
import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the async work of one ``TestScheduler`` — its tasks' jobs — inside `advance`, `run` and
/// `flush`, so that async code moves in virtual time, deterministically.
///
/// ## How jobs get here
///
/// A job is a piece of a task between two suspension points. Jobs reach the driver in two ways:
///
/// - **Tasks the scheduler starts** (`scheduler.task { … }`, `record(sequence)`) are created with
///   this driver as their *task executor preference* (SE-0417). Their nonisolated jobs — and
///   those of their child tasks, `async let`s and task groups, which inherit the preference — are
///   always enqueued here, whoever resumes them.
/// - **Every other job of the driven world** — tasks the test body starts after it made the
///   scheduler, tasks that driven code creates, their main-actor work, the actor jobs driven code
///   starts — comes through the runtime's hooks, which ask ``DrivenWorld/take(_:on:)`` (the one
///   routing decision; its file explains it).
///
/// ## Order
///
/// The drain loop runs every ready job, first in first out, before each action and before it
/// returns: async work that an action makes ready (a sleep that ends, a value a signal sends) runs
/// before virtual time moves, and the same input gives the same interleaving every time. A job
/// bound for the main actor runs on the main actor: at once if the drain is on the main queue
/// already, otherwise handed to the main queue while the drain waits for it.
///
/// ## Nothing hangs
///
/// A driver whose jobs have been ready for ``stallTimeout`` of real time with nobody driving it —
/// a test awaiting a driven task's value before `run()` — is given up by the ``Watchdog``: its
/// tasks are cancelled and handed to the runtime's own executors, so the await ends, and the
/// scheduler records a ``TestSchedulerFailure`` that the next assertion, `flush()`, or the
/// scheduler's release reports. A drain that cannot reach the main actor within the same time
/// stops and reports that instead of waiting for ever.
package final class TaskDriver: TaskExecutor {
  /// Where a ready job must run.
  package enum Target: Sendable {
    /// On the drain's thread, on the generic executor: a nonisolated job, or an actor's job.
    ///
    /// It runs on the generic executor, as it would without Marbles: on this driver as its task
    /// executor, a task that does not prefer it would hop at its next nonisolated call — one
    /// more job, and a standard sleep's real clock read before the hop. Jobs its code enqueues
    /// on "the current executor" then reach the default executor, which must be
    /// ``VirtualSleeps``' router for them to come back; where it is not, it runs on this driver.
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
    /// For a task's step that continues the step before it — the task left the main actor, or
    /// an actor, for the generic executor — the clock readings that step made (a deadline read
    /// there is slept on here); else none.
    var carriedReading = marbles_clock_reading()
  }

  /// The ready jobs, in the order they became ready.
  private let ready = Locked(FIFOQueue<ReadyJob>())
  /// How many jobs are ready: read without the lock, so that a drain with no async work checks
  /// for jobs without taking it between actions.
  private let readyCount = Atomic(0)
  /// Tasks with a larger id were created after this driver.
  package let watermark: UInt64
  /// How long, in real time, work may wait for a drain — or a drain for the main actor — before
  /// it is given up and reported.
  package let stallTimeout: Duration
  /// What the watchdog and the release of the scheduler look at.
  private let watch = Locked(Watch())
  /// How many drains have begun: the watchdog sees progress when it changes.
  private let drains = Atomic(0)
  /// Whether the driver has let its work go; read by the routing decision without a lock.
  private let isAbandoned = Atomic(false)
  /// How many standard sleeps are pending: read without a lock by ``makeReady(_:on:)``.
  private let standardSleepCount = Atomic(0)
  /// The task whose step runs now, or 0.
  private let stepTask = Atomic<UInt64>(0)
  /// The engine of the scheduler this driver belongs to, while it exists.
  private let owner = Locked(WeakCore())

  struct WeakCore {
    weak var core: SchedulerCore?
  }

  struct Watch {
    /// Why the driver let its work go, once it has.
    var abandonment: TestSchedulerFailure?
    /// The tasks asleep on the scheduler's clock or a standard clock, which a give-up wakes.
    var sleeps: [ObjectIdentifier: any AbandonableSleep] = [:]
    /// The standard sleeps among them, by sleeping task, to end one early when its task comes
    /// back first (cancelled).
    var standardSleeps: [UInt64: StandardSleep] = [:]
    /// The tasks whose main-actor job a drain stopped waiting for, because the main actor never
    /// came free, and that has not run yet.
    var waitingForTheMainActor: Set<UInt64> = []
    /// What driven tasks did outside virtual time (a resumption from a real clock, a queue, a
    /// thread), to name it in reports.
    var notes: [String] = []
    /// When the watchdog first saw the driver's work waiting with no drain, and the drain count
    /// then.
    var stalledSince: (at: ContinuousClock.Instant, drains: Int)?
    var isDraining = false
  }

  /// The test's code that made the driver: its task, or its thread where no task was current.
  let madeIn: DrivenWorld.Context

  package init(stallTimeout: Duration) {
    self.stallTimeout = stallTimeout
    watermark = DrivenWorld.nextTaskID()
    madeIn = DrivenWorld.currentContext
    DrivenWorld.register(self, madeIn: madeIn)
  }

  deinit {
    DrivenWorld.unregister(ObjectIdentifier(self))
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
    if TaskDriver.current == nil, !DrivenWorld.isTestCode(of: self) { noteResumptionFromOutside() }
    makeReady(UnownedJob(job), on: .preferred)
  }

  /// Notes that a driven task was resumed by code that is neither driven work nor the test's.
  func noteResumptionFromOutside() {
    note(
      "a driven task was resumed from outside virtual time, by code the scheduler does not "
        + "drive — a real clock (Task.sleep, ContinuousClock), a Dispatch queue, a thread, an "
        + "actor with an executor of its own")
  }

  /// Makes a job ready to run at the scheduler's next drain — or, once the driver has let its
  /// work go, sends it where it would have gone.
  func makeReady(_ job: UnownedJob, on target: Target) {
    if standardSleepCount.load(ordering: .acquiring) > 0 { endStandardSleepEarly(of: job) }
    let continued = continuedStep(job, on: target)
    let isAbandoned = ready.withLock { ready -> Bool in
      // NB: read under the ready lock, which a give-up holds while it sets the flag and empties
      // the queue, so that no job is left behind.
      guard !self.isAbandoned.load(ordering: .acquiring) else { return true }
      if let continued {
        ready.pushFirst(ReadyJob(job: job, target: target, carriedReading: continued))
      } else {
        ready.append(ReadyJob(job: job, target: target))
      }
      readyCount.add(1, ordering: .releasing)
      return false
    }
    if isAbandoned { Self.release(ReadyJob(job: job, target: target), cancelling: false) }
  }

  /// How many jobs are ready to run.
  package var readyJobCount: Int {
    readyCount.load(ordering: .acquiring)
  }

  /// Takes the next ready job, if any.
  func takeReadyJob() -> ReadyJob? {
    guard readyCount.load(ordering: .acquiring) > 0 else { return nil }
    return ready.withLock { ready in
      let job = ready.popFirst()
      if job != nil { readyCount.subtract(1, ordering: .releasing) }
      return job
    }
  }

  /// Puts a job taken but not run back, first in line.
  func putBack(_ job: ReadyJob) {
    ready.withLock { ready in
      ready.pushFirst(job)
      readyCount.add(1, ordering: .releasing)
    }
  }

  /// Runs a ready job: on this thread, or on the main actor. Call it inside
  /// ``withCurrentDriver(_:)``.
  ///
  /// - Returns: `false` if the job is bound for the main actor and the main queue did not take it
  ///   within ``stallTimeout``; it then runs whenever the main queue comes free.
  func run(_ ready: ReadyJob) -> Bool {
    beginStep(ready)
    let job = ready.job
    switch ready.target {
    case .global where VirtualSleeps.isRouting:
      swift_job_run(
        unsafeBitCast(job, to: MarblesJobRef.self),
        MarblesExecutorRef(identity: nil, implementation: 0))
    case .global, .preferred:
      job.runSynchronously(on: asUnownedTaskExecutor())
    case .main where MainQueue.isCurrent:
      job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
    case .main:
      let task = DrivenWorld.taskID(of: job)
      let done = DispatchSemaphore(value: 0)
      // Whether the job has run, and whether the drain stopped waiting for it.
      let handOff = Locked((ran: false, gaveUp: false))
      DispatchQueue.main.async {
        self.withCurrentDriver {
          marbles_begin_step(ready.carriedReading)
          job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
        }
        handOff.withLock { handOff in
          handOff.ran = true
          if handOff.gaveUp, let task {
            _ = self.watch.withLock { $0.waitingForTheMainActor.remove(task) }
          }
        }
        done.signal()
      }
      let timeout = DispatchTime.now() + QueueScheduler.dispatchInterval(stallTimeout)
      guard done.wait(timeout: timeout) == .success else {
        // The job runs whenever the main queue comes free; until then its task is stuck on the
        // main actor, which every report of it says.
        handOff.withLock { handOff in
          handOff.gaveUp = true
          if !handOff.ran, let task {
            _ = watch.withLock { $0.waitingForTheMainActor.insert(task) }
          }
        }
        return false
      }
    }
    return true
  }

  // MARK: The driver whose work this thread runs

  /// Runs `body` with this driver recorded as the one whose work this thread is running, so that
  /// the jobs enqueued meanwhile come here.
  package func withCurrentDriver<Result>(_ body: () throws -> Result) rethrows -> Result {
    let key = ThreadSlot.driverKey
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(key, previous) }
    return try body()
  }

  /// The driver whose work this thread is running, if any.
  static var current: TaskDriver? {
    guard let pointer = pthread_getspecific(ThreadSlot.driverKey) else { return nil }
    return Unmanaged<TaskDriver>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Marks a drain's start and end, which the watchdog counts as progress.
  func drain<Result>(_ body: () throws -> Result) rethrows -> Result {
    drains.add(1, ordering: .relaxed)
    watch.withLock {
      $0.isDraining = true
      $0.stalledSince = nil
    }
    defer { watch.withLock { $0.isDraining = false } }
    // A synchronous XCTest method's new tasks wait for the first scheduler it drives.
    DrivenWorld.adoptHeldJobs(into: self)
    return try withCurrentDriver(body)
  }

  // MARK: Sleeps

  /// Records a sleep on the scheduler's clock, which a give-up wakes with cancellation.
  ///
  /// - Returns: `false` if the driver has let its work go: the sleep must end at once.
  func register(_ sleep: some AbandonableSleep) -> Bool {
    watch.withLock { watch in
      guard watch.abandonment == nil else { return false }
      watch.sleeps[ObjectIdentifier(sleep)] = sleep
      return true
    }
  }

  /// Forgets a sleep that ended.
  func unregister(_ sleep: some AbandonableSleep) {
    _ = watch.withLock { $0.sleeps.removeValue(forKey: ObjectIdentifier(sleep)) }
  }

  /// Puts a standard sleep of a driven task on the scheduler's virtual time (see
  /// ``VirtualSleeps``): its wake-up job runs at `now + ceil(duration / tick)`.
  ///
  /// - Parameters:
  ///   - task: The sleeping task (the current one).
  ///   - wake: The runtime's wake-up job for it.
  ///   - duration: How long it sleeps (see ``SleepDuration``).
  /// - Returns: `false` if the scheduler is gone or let its work go: the sleep is a real one.
  func sleep(_ task: MarblesJobRef, wake: UnownedJob, for duration: Duration) -> Bool {
    guard let core else { return false }
    let sleep = StandardSleep(
      task: task, wake: wake, wakeTick: core.now.clampedAdding(core.ticks(duration)))
    let isRegistered = watch.withLock { watch in
      guard watch.abandonment == nil, let id = sleep.taskID else { return false }
      watch.sleeps[ObjectIdentifier(sleep)] = sleep
      watch.standardSleeps[id] = sleep
      standardSleepCount.add(1, ordering: .releasing)
      return true
    }
    guard isRegistered else {
      sleep.discard()
      return false
    }
    sleep.scheduled(
      core.schedule(at: sleep.wakeTick) { [self] in
        if forget(sleep) { sleep.wakeUp(on: self) }
      })
    return true
  }

  /// Ends early the standard sleep of the task `job` belongs to, if it has one: the task came
  /// back before the sleep's tick, which only its cancellation does.
  private func endStandardSleepEarly(of job: UnownedJob) {
    guard let id = DrivenWorld.taskID(of: job) else { return }
    let sleep = watch.withLock { $0.standardSleeps[id] }
    if let sleep, forget(sleep) { sleep.endEarly() }
  }

  /// Forgets a standard sleep that is ending.
  ///
  /// - Returns: Whether it was still recorded (a give-up may have taken it).
  private func forget(_ sleep: StandardSleep) -> Bool {
    watch.withLock { watch in
      guard watch.sleeps.removeValue(forKey: ObjectIdentifier(sleep)) != nil else { return false }
      if let id = sleep.taskID { watch.standardSleeps[id] = nil }
      standardSleepCount.subtract(1, ordering: .releasing)
      return true
    }
  }

  /// Notes that a step (a job) begins on this thread: its task, and the clock readings it starts
  /// with — none, or those of the step it continues.
  func beginStep(_ ready: ReadyJob) {
    stepTask.store(DrivenWorld.taskID(of: ready.job) ?? 0, ordering: .relaxed)
    marbles_begin_step(ready.carriedReading)
  }

  /// The clock readings of the step of `job`'s task running now, if `job` continues it on the
  /// generic executor: the task is leaving the main actor or an actor (a hop), as a call to the
  /// standard library's sleep from there does after the caller read the real clock.
  ///
  /// Such a job runs next, before the jobs already ready, as the global executor would start it
  /// at once.
  private func continuedStep(_ job: UnownedJob, on target: Target) -> marbles_clock_reading? {
    guard target != .main, TaskDriver.current === self,
      let id = DrivenWorld.taskID(of: job), id == stepTask.load(ordering: .relaxed)
    else { return nil }
    return marbles_step_reading()
  }

  /// Whether task `id`'s main-actor job waits for a main actor that never came free.
  package func isWaitingForTheMainActor(_ id: UInt64?) -> Bool {
    guard let id else { return false }
    return watch.withLock { $0.waitingForTheMainActor.contains(id) }
  }

  /// What the driver's sleeping tasks wait for: each with its wake tick, earliest first.
  var sleepingTasks: [(taskID: UInt64?, wakeTick: Int)] {
    watch.withLock { watch in
      watch.sleeps.values.map { ($0.taskID, $0.wakeTick) }.sorted { $0.wakeTick < $1.wakeTick }
    }
  }

  /// Notes something driven work did outside virtual time, once.
  func note(_ note: String) {
    watch.withLock { watch in
      if !watch.notes.contains(note) { watch.notes.append(note) }
    }
  }

  /// What driven work did outside virtual time.
  package var notes: [String] {
    watch.withLock { $0.notes }
  }

  // MARK: Giving up

  /// Whether the driver has let its work go: it then takes no new work.
  var hasLetGo: Bool {
    isAbandoned.load(ordering: .acquiring)
  }

  /// Why the driver let its work go, if it has.
  package var abandonment: TestSchedulerFailure? {
    watch.withLock { $0.abandonment }
  }

  /// The watchdog's look: `true` once jobs have been ready, or driven tasks asleep in virtual
  /// time, for ``stallTimeout`` (less the watchdog's own period, so the whole wait stays within
  /// it) with no drain begun — a test awaiting a driven task that nobody drives.
  ///
  /// A task asleep after its test ended (an endless timer kept alive by a cycle) is given up
  /// too; that is not reported, since its test is over (see `TestScheduler`'s `deinit`).
  func isStalled(at now: ContinuousClock.Instant, period: Duration) -> Bool {
    let drainsBegun = drains.load(ordering: .relaxed)
    let hasReadyJobs = readyJobCount > 0
    return watch.withLock { watch in
      guard watch.abandonment == nil, !watch.isDraining, hasReadyJobs || !watch.sleeps.isEmpty
      else {
        watch.stalledSince = nil
        return false
      }
      guard let since = watch.stalledSince, since.drains == drainsBegun else {
        watch.stalledSince = (now, drainsBegun)
        return false
      }
      return since.at.duration(to: now) >= stallTimeout - period
    }
  }

  /// Lets the driver's work go: cancels its ready tasks and hands them to the runtime's own
  /// executors, wakes its sleeping tasks with cancellation, and sends every later job straight
  /// where it would have gone. Happens once; a drain in progress prevents it.
  ///
  /// - Parameters:
  ///   - failure: Why.
  ///   - record: Called once the driver has let go, before the work is released — so that
  ///     whoever the released work wakes finds the failure recorded.
  /// - Returns: Whether this call gave the work up.
  @discardableResult
  func abandon(because failure: TestSchedulerFailure, record: () -> Void = {}) -> Bool {
    let taken = ready.withLock { ready -> (jobs: [ReadyJob], sleeps: [any AbandonableSleep])? in
      let sleeps = watch.withLock { watch -> [any AbandonableSleep]? in
        guard watch.abandonment == nil, !watch.isDraining else { return nil }
        watch.abandonment = failure
        isAbandoned.store(true, ordering: .releasing)
        defer {
          watch.sleeps = [:]
          watch.standardSleeps = [:]
          standardSleepCount.store(0, ordering: .releasing)
        }
        return Array(watch.sleeps.values)
      }
      guard let sleeps else { return nil }
      var jobs: [ReadyJob] = []
      while let job = ready.popFirst() { jobs.append(job) }
      readyCount.store(0, ordering: .releasing)
      return (jobs, sleeps)
    }
    guard let taken else { return false }
    record()
    for job in taken.jobs { Self.release(job, cancelling: true) }
    for sleep in taken.sleeps { sleep.abandon() }
    return true
  }

  /// Sends a job where it would have gone without the driver, cancelling its task first if asked.
  static func release(_ ready: ReadyJob, cancelling: Bool) {
    if cancelling { DrivenWorld.cancelTask(of: ready.job) }
    switch ready.target {
    case .global, .preferred: DrivenWorld.enqueueGlobal(ready.job)
    case .main: DrivenWorld.enqueueMain(ready.job)
    }
  }
}

/// A sleep on the scheduler's clock, which a driver that gives its work up wakes with
/// cancellation.
protocol AbandonableSleep: AnyObject, Sendable {
  /// The sleeping task's id, if known.
  var taskID: UInt64? { get }
  /// The tick it wakes at.
  var wakeTick: Int { get }
  /// Cancels the sleeping task and resumes it, throwing `CancellationError`.
  func abandon()
}
