import CMarbleDriving
import Dispatch
@_spi(Internals) import Signals

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which ``TaskDriver`` — which test's ``TestScheduler`` — owns a job: the one routing decision
/// behind every runtime hook Marbles installs.
///
/// ## The design, in a paragraph
///
/// The Swift runtime lets a process replace where jobs go: the global executor's enqueue
/// (`swift_task_enqueueGlobal_hook`, which every nonisolated task and every new `Task { }` passes
/// through) and the main actor's executor
/// (`swift_task_getMainExecutor_hook`, which we answer with ``MainActorRouter``, an executor that
/// forwards everything it does not own to the main queue, as the runtime's own would). Each hook
/// asks ``take(_:on:)`` and either hands the job to that driver — which runs it inside the
/// scheduler's `advance`, `run` or `flush`, first in first out, main-actor jobs on the main actor —
/// or lets it go where it was going. The decision reads only the job and its enqueuing context,
/// never a process-wide mode, so tests run side by side under `--parallel`, each scheduler driving
/// only its own test's work (pointfreeco's `withMainSerialExecutor` instead sends every job of the
/// process to the main queue, which is why it cannot). A job belongs to a driver when:
///
/// 1. it is a task the driver already owns (kept by task id, so a resumption from anywhere — a
///    test body yielding into a stream, a thread resuming a continuation — comes back);
/// 2. it is enqueued while that driver runs its work on this thread (a task created or resumed by
///    driven code, an actor job it starts), unless it is an older task (a test awaiting a task,
///    a test runner awaiting a test);
/// 3. it is a task created after the scheduler by the test that made it — from the test's own
///    task (the current task when `TestScheduler()` ran, so `Task { }`, `Task.detached`, a `Task`
///    in an `AsyncStream` builder, an `init` or a `didSet` all count) or, where no task is current
///    (a synchronous XCTest method), from the thread that made it. The latest scheduler of the
///    test still alive wins. "After" is exact: task ids grow with creation, and a scheduler notes
///    the id of a task it creates when it is made (``TaskDriver/watermark``).
///
/// ## Limits
///
/// - Tasks created before the scheduler, or by other tests, are never driven.
/// - Work on an actor with an executor of its own, on a Dispatch queue or on a thread runs there,
///   in real time, and so does a sleep on a real clock (`Task.sleep`, `ContinuousClock`), which
///   Swift 6.2 and later schedule past the hooks. A driven task resumed from such a place comes
///   back to its driver, which notes it, and `flush()` names it when it reports a driven task that
///   is still waiting.
/// - The main actor is the main queue: on Linux under `dispatch_main` a worker thread serves it,
///   on Apple platforms the main thread. A drain on another thread hands main-actor jobs over one
///   at a time and waits for each, and gives up (reporting it) if the main queue stays busy.
/// - It relies on the runtime's hooks and on two facts about jobs that are not public API (a
///   job's kind byte, and that task ids grow), both stable since Swift 5.9; Marbles checks them in
///   its tests on every toolchain it supports.
package enum DrivenWorld {
  // MARK: The decision

  /// What becomes of a job.
  enum Decision {
    /// A driver owns it: it runs inside that scheduler's drains.
    case driver(TaskDriver)
    /// A test on a thread with no task made it: it waits for a scheduler made on that thread to
    /// be driven there, or for the thread to go back to its run loop.
    case held
    /// It is not the driven world's: it goes where it was going.
    case pass
  }

  /// Takes `job` into the driven world if it belongs there.
  ///
  /// - Returns: `false` if the job is not the driven world's and must go where it was going.
  static func take(_ job: MarblesJobRef, on target: TaskDriver.Target) -> Bool {
    switch decide(job, target: target) {
    case .driver(let driver):
      driver.makeReady(unsafeBitCast(job, to: UnownedJob.self), on: target)
      return true
    case .held:
      return true
    case .pass:
      return false
    }
  }

  /// The routing decision (see the top of this file). A job held for its thread is queued for it
  /// here, under the registry's lock, so that a drain adopting the thread's jobs sees them in order.
  private static func decide(_ job: MarblesJobRef, target: TaskDriver.Target) -> Decision {
    guard !ThreadSlot.isBypassing else { return .pass }
    let isTask = marbles_job_is_task(job) != 0
    let id = isTask ? swift_task_getJobTaskId(job) : 0
    let draining = TaskDriver.current
    let currentID = swift_task_getCurrent().map { swift_task_getJobTaskId($0) }
    let thread = draining == nil && currentID == nil ? ThreadSlot.threadID : nil
    var releaseHeldJobs: UInt?
    var resumedFromOutside: TaskDriver?
    let decision = registry.withLock { registry -> Decision in
      if isTask, let owner = registry.owners[id] {
        // A driver that let its work go (its scheduler was released, or nothing drove it) takes
        // nothing more.
        let driver = owner.driver
        if !driver.hasLetGo {
          if draining == nil, !registry.isTestCode(of: driver, task: currentID, thread: thread) {
            resumedFromOutside = driver
          }
          return .driver(driver)
        }
        registry.owners[id] = nil
        return .pass
      }
      // Who is enqueueing: driven work, or a test's own code.
      let context: TaskDriver?
      if let draining {
        context = draining
      } else if let currentID {
        if let owner = registry.owners[currentID]?.driver {
          context = owner
        } else {
          // A test's own task: its new tasks are driven, its hops to actors are its own.
          guard isTask, let made = registry.latest(in: .task(currentID)), id > made.watermark
          else { return .pass }
          registry.own(id, by: made)
          return .driver(made)
        }
      } else if let thread, isTask, ThreadSlot.isMainThread,
        registry.latest(in: .thread(thread)) != nil
      {
        // A test on the main thread with no task (a synchronous XCTest method): hold the new
        // task for the scheduler the test drives next on this thread.
        if registry.held[thread, default: []].isEmpty { releaseHeldJobs = thread }
        registry.held[thread, default: []].append(
          TaskDriver.ReadyJob(job: unsafeBitCast(job, to: UnownedJob.self), target: target))
        return .held
      } else {
        return .pass
      }
      guard let context, !context.hasLetGo else { return .pass }
      // An actor's or a continuation's job belongs to the work that enqueues it. A task older
      // than the scheduler is never taken: a test awaiting a driven task, a runner awaiting the
      // test, a task the test started earlier.
      guard isTask else { return .driver(context) }
      guard id > context.watermark else { return .pass }
      registry.own(id, by: context)
      return .driver(context)
    }
    if let releaseHeldJobs { releaseHeldJobsWhenTheMainThreadIsIdle(releaseHeldJobs) }
    resumedFromOutside?.noteResumptionFromOutside()
    return decision
  }

  /// Adopts the tasks held for this thread into `driver`, if the driver was made on this thread
  /// (a drain's first step); the held tasks older than the driver go where they were going.
  static func adoptHeldJobs(into driver: TaskDriver) {
    let thread = ThreadSlot.threadID
    let held = registry.withLock { registry -> [(job: TaskDriver.ReadyJob, isAdopted: Bool)] in
      guard registry.held[thread] != nil,
        registry.contexts[.thread(thread)]?.contains(where: { $0.id == ObjectIdentifier(driver) })
          == true
      else { return [] }
      return (registry.held.removeValue(forKey: thread) ?? []).map { job in
        let id = swift_task_getJobTaskId(unsafeBitCast(job.job, to: MarblesJobRef.self))
        guard id > driver.watermark else { return (job, false) }
        registry.own(id, by: driver)
        return (job, true)
      }
    }
    for (job, isAdopted) in held {
      if isAdopted {
        driver.makeReady(job.job, on: job.target)
      } else {
        TaskDriver.release(job, cancelling: false)
      }
    }
  }

  /// Lets the tasks held for the main thread go where they were going once the main thread goes
  /// back to its run loop — the test that started them ended, or waits for something real — with
  /// no scheduler made on it driven meanwhile.
  ///
  /// Such a task — XCTest's own task for an `async` test method, started after `setUp` made a
  /// scheduler — runs as the test's code: the tasks it starts belong to that scheduler.
  private static func releaseHeldJobsWhenTheMainThreadIsIdle(_ thread: UInt) {
    DispatchQueue.main.async {
      let held = registry.withLock { registry -> [TaskDriver.ReadyJob] in
        let held = registry.held.removeValue(forKey: thread) ?? []
        if let made = registry.latest(in: .thread(thread)) {
          for job in held {
            let id = swift_task_getJobTaskId(unsafeBitCast(job.job, to: MarblesJobRef.self))
            registry.contexts[.task(id), default: []].append(DriverRef(made))
          }
        }
        return held
      }
      for job in held { TaskDriver.release(job, cancelling: false) }
    }
  }

  // MARK: Drivers and the tests that made them

  /// Where a scheduler was made: in a task (by its id), or on a thread with no task.
  package enum Context: Hashable, Sendable {
    case task(UInt64)
    case thread(UInt)
  }

  /// A driver the registry names without keeping it alive.
  ///
  /// NB: unowned, not weak: a weakly referenced object takes the slow path for every retain and
  /// release, and drivers are retained on every job. Safe because every entry naming a driver is
  /// removed when its scheduler is released (``unregister(_:)``), while the scheduler's engine
  /// still holds the driver.
  struct DriverRef {
    let id: ObjectIdentifier
    private let unmanaged: Unmanaged<TaskDriver>

    init(_ driver: TaskDriver) {
      id = ObjectIdentifier(driver)
      unmanaged = .passUnretained(driver)
    }

    var driver: TaskDriver { unmanaged.takeUnretainedValue() }
  }

  struct Registry {
    /// The tasks each driver owns, by task id.
    var owners: [UInt64: DriverRef] = [:]
    /// Each driver's owned task ids, to forget them with it.
    var ownedIDs: [ObjectIdentifier: [UInt64]] = [:]
    /// The drivers each test made, oldest first.
    var contexts: [Context: [DriverRef]] = [:]
    /// Every driver alive, for the watchdog.
    var drivers: [ObjectIdentifier: DriverRef] = [:]
    /// New tasks a test started on a thread with no task, waiting for a scheduler made on that
    /// thread to be driven there.
    var held: [UInt: [TaskDriver.ReadyJob]] = [:]

    /// Whether the code enqueueing — the current task, or the thread with no task — is `driver`'s
    /// own work or its test's code.
    func isTestCode(of driver: TaskDriver, task: UInt64?, thread: UInt?) -> Bool {
      let context: Context
      if let task {
        if owners[task]?.id == ObjectIdentifier(driver) { return true }
        context = .task(task)
      } else if let thread {
        context = .thread(thread)
      } else {
        return false
      }
      return contexts[context]?.contains { $0.id == ObjectIdentifier(driver) } == true
    }

    /// Records that `driver` owns task `id`.
    mutating func own(_ id: UInt64, by driver: TaskDriver) {
      owners[id] = DriverRef(driver)
      ownedIDs[ObjectIdentifier(driver), default: []].append(id)
    }

    /// The latest driver made in `context` that is still alive.
    mutating func latest(in context: Context) -> TaskDriver? {
      guard var made = contexts[context] else { return nil }
      made.removeAll { $0.driver.hasLetGo }
      contexts[context] = made.isEmpty ? nil : made
      return made.last?.driver
    }
  }

  static let registry = Locked(Registry())

  /// Records a new driver as made in `context` (see ``currentContext``); installs the hooks the
  /// first time.
  static func register(_ driver: TaskDriver, madeIn context: Context) {
    installHooks()
    registry.withLock { registry in
      registry.contexts[context, default: []].append(DriverRef(driver))
      registry.drivers[ObjectIdentifier(driver)] = DriverRef(driver)
    }
    Watchdog.start()
  }

  /// Forgets a driver that is going away, and the tasks it owned.
  static func unregister(_ driver: ObjectIdentifier) {
    registry.withLock { registry in
      registry.drivers[driver] = nil
      for (context, made) in registry.contexts {
        let others = made.filter { $0.id != driver }
        registry.contexts[context] = others.isEmpty ? nil : others
      }
      for id in registry.ownedIDs.removeValue(forKey: driver) ?? [] { registry.owners[id] = nil }
    }
  }

  /// The code running on this thread: a task, or the thread where no task is current.
  static var currentContext: Context {
    if let task = swift_task_getCurrent() {
      .task(swift_task_getJobTaskId(task))
    } else {
      .thread(ThreadSlot.threadID)
    }
  }

  /// Every driver alive.
  static var liveDrivers: [TaskDriver] {
    registry.withLock { $0.drivers.values.map(\.driver) }
  }

  /// The id the next task will have at least: the id of a task made now. Every task created
  /// before this call has a smaller id, every task created after it a larger one.
  ///
  /// The task is run at once, on this thread, by the executor it prefers: no thread is woken.
  static func nextTaskID() -> UInt64 {
    let probe = Task(executorPreference: InlineExecutor.shared) {}
    return withExtendedLifetime(probe) {
      swift_task_getJobTaskId(unsafeBitCast(probe, to: MarblesJobRef.self))
    }
  }

  /// Runs a job on the thread that enqueues it, at once: for ``nextTaskID()``'s empty task.
  private final class InlineExecutor: TaskExecutor {
    static let shared = InlineExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  /// Whether the code running on this thread is a test's own code for `driver`: the task, or
  /// the thread with no task, that made it.
  static func isTestCode(of driver: TaskDriver) -> Bool {
    let task = swift_task_getCurrent().map { swift_task_getJobTaskId($0) }
    let thread = task == nil ? ThreadSlot.threadID : nil
    return registry.withLock { $0.isTestCode(of: driver, task: task, thread: thread) }
  }

  // MARK: Handing jobs back to the runtime

  /// Sends a job to the global executor, past the hook.
  static func enqueueGlobal(_ job: UnownedJob) {
    ThreadSlot.bypassing { swift_task_enqueueGlobal(unsafeBitCast(job, to: MarblesJobRef.self)) }
  }

  /// Runs a job on the main actor, on the main queue, asynchronously, outside any driver.
  static func enqueueMain(_ job: UnownedJob) {
    DispatchQueue.main.async {
      job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
    }
  }

  /// Cancels the task a job belongs to, if it is a task. The job must not have run yet.
  static func cancelTask(of job: UnownedJob) {
    let ref = unsafeBitCast(job, to: MarblesJobRef.self)
    if marbles_job_is_task(ref) != 0 { swift_task_cancel(ref) }
  }

  // MARK: The hooks

  /// Installs the hooks, unless they are installed already.
  ///
  /// NB: checked for every new driver: another library (swift-async-algorithms'
  /// `AsyncSequenceValidation`) may have replaced or cleared the global hook since.
  static func installHooks() {
    hookLock.withLock { ours in
      let installed = swift_task_enqueueGlobal_hook.map {
        unsafeBitCast($0, to: UnsafeRawPointer.self)
      }
      guard ours == nil || installed != ours else { return }
      swift_task_enqueueGlobal_hook = { job, original in
        if !DrivenWorld.take(job, on: .global) { original(job) }
      }
      swift_task_getMainExecutor_hook = { _ in
        unsafeBitCast(MainActorRouter.shared.asUnownedSerialExecutor(), to: MarblesExecutorRef.self)
      }
      ours = swift_task_enqueueGlobal_hook.map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
    }
  }

  /// Our global hook's address, once installed.
  ///
  /// NB: `Locked`, not a bare `Mutex`: its handoff is visible to the thread sanitizer.
  private static let hookLock = Locked<UnsafeRawPointer?>(nil)
}

/// The main actor's executor while Marbles' hooks are installed: a job that belongs to a driver
/// goes to it; every other job runs on the main queue, as the runtime's own main executor does.
///
/// Jobs run "on" this executor, so that a main-actor task hopping to the main actor again does not
/// suspend; its isolation checks ask whether the main queue is the current one.
final class MainActorRouter: SerialExecutor, Sendable {
  static let shared = MainActorRouter()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if !DrivenWorld.take(unsafeBitCast(job, to: MarblesJobRef.self), on: .main) {
      DrivenWorld.enqueueMain(job)
    }
  }

  func checkIsolated() {
    dispatchPrecondition(condition: .onQueue(.main))
  }

  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  func isIsolatingCurrentContext() -> Bool? {
    MainQueue.isCurrent
  }
}

/// Whether this thread is serving the main queue.
enum MainQueue {
  private static let key: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  /// Whether the current queue is the main queue (the main thread counts, where it runs code).
  static var isCurrent: Bool {
    DispatchQueue.getSpecific(key: key) != nil
  }
}

/// Thread-specific slots: which driver's work this thread runs, and whether the hooks should
/// let this thread's jobs pass.
///
/// NB: thread-specific rather than task-local: the drain loop runs outside the tasks it drives,
/// and the hooks must know the driver whether the enqueuer is a driven task, an action of the
/// scheduler, or a job of an unstructured task.
enum ThreadSlot {
  static let driverKey = makeKey()
  private static let bypassKey = makeKey()

  private static func makeKey() -> pthread_key_t {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }

  /// Whether this is the process's main thread (where XCTest runs its tests).
  static var isMainThread: Bool {
    marbles_is_main_thread() != 0
  }

  /// This thread, as a number.
  static var threadID: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  /// Whether jobs enqueued on this thread now skip the hooks.
  static var isBypassing: Bool {
    pthread_getspecific(bypassKey) != nil
  }

  /// Runs `body` with the hooks letting this thread's jobs pass.
  static func bypassing<Result>(_ body: () throws -> Result) rethrows -> Result {
    let previous = pthread_getspecific(bypassKey)
    pthread_setspecific(bypassKey, UnsafeRawPointer(bitPattern: 1))
    defer { pthread_setspecific(bypassKey, previous) }
    return try body()
  }
}
