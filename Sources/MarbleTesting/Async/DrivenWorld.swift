import CMarbleDriving
import CMarbleRuntime
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
/// through), the main actor's executor
/// (`swift_task_getMainExecutor_hook`, which we answer with ``MainActorRouter``, an executor that
/// forwards everything it does not own to the main queue, as the runtime's own would), and — since
/// Swift 6.3 — the default executor, which every standard sleep asks to schedule its wake-up
/// (``VirtualSleeps``' router). Marbles takes them when the process loads (CMarbleRuntime). Each
/// hook asks ``take(_:on:)`` (a sleep asks ``driverOfTheCurrentTask()``, the same decision) and
/// either hands the job to that driver — which runs it inside the
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
///    the id of a task it creates when it is made (``TaskDriver/watermark``);
/// 4. it is a task that runs inside the test's code without having been enqueued — the first
///    steps of a `Task.immediate` — or enqueued by one: the jobs of the test's own task run with
///    their thread marked (``ThreadSlot/testTask``), and the job that made the scheduler is
///    noted until it is known to have ended (``Registry/initialJobs``).
///
/// ## Limits
///
/// - Tasks created before the scheduler, or by other tests, are never driven.
/// - Work on an actor with an executor of its own, on a Dispatch queue or on a thread runs there,
///   in real time, and so does a standard sleep before Swift 6.3 (see ``VirtualSleeps``). A driven
///   task resumed from such a place comes back to its driver, which notes it, and `flush()` names
///   it when it reports a driven task that is still waiting.
/// - A `Task.immediate` started by the test's code while it runs on an actor other than the main
///   actor is not known to be the test's.
/// - The main actor is the main queue: on Linux under `dispatch_main` a worker thread serves it,
///   on Apple platforms the main thread. A drain on another thread hands main-actor jobs over one
///   at a time and waits for each, and gives up (reporting it) if the main queue stays busy.
/// - It relies on the runtime's hooks and on facts that are not public API — a job's kind byte
///   and that task ids grow (stable since Swift 5.9), and the executor a nonisolated
///   `Task.immediate` runs its first steps on (`{NULL, 2}`, since 6.2); Marbles' tests check them
///   on every toolchain it supports.
package enum DrivenWorld {
  // MARK: The decision

  /// What becomes of a job.
  enum Decision {
    /// A driver owns it: it runs inside that scheduler's drains.
    case driver(TaskDriver)
    /// A test on a thread with no task made it: it waits for a scheduler made on that thread to
    /// be driven there, or for the thread to go back to its run loop.
    case held
    /// A job of a test's own task, bound for the global executor: it runs there, with its thread
    /// marked as running that test's code (see ``Registry/context(draining:current:thread:testTaskHere:)``).
    case testTask(UInt64)
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
    case .testTask(let id):
      runAsTheTest(id, unsafeBitCast(job, to: UnownedJob.self))
      return true
    case .pass:
      return false
    }
  }

  /// The routing decision (see the top of this file). A job held for its thread is queued for it
  /// here, under the registry's lock, so that a drain adopting the thread's jobs sees them in order.
  private static func decide(_ job: MarblesJobRef, target: TaskDriver.Target) -> Decision {
    guard !ThreadSlot.isBypassing else { return .pass }
    let jobTask = Self.taskID(of: job)
    let isTask = jobTask != nil
    let id = jobTask ?? 0
    let draining = TaskDriver.current
    let currentID = swift_task_getCurrent().map { swift_task_getJobTaskId($0) }
    let thread = ThreadSlot.threadID
    let testTaskHere = ThreadSlot.testTask
    var releaseHeldJobs: UInt?
    var resumedFromOutside: TaskDriver?
    let decision = registry.withLock { registry -> Decision in
      if isTask {
        if let owner = registry.owners[id] {
          // A driver that let its work go (its scheduler was released, or nothing drove it) takes
          // nothing more.
          let driver = owner.driver
          if !driver.hasLetGo {
            if draining == nil,
              !registry.isTestCode(
                of: driver, task: currentID, thread: currentID == nil ? thread : nil)
            {
              resumedFromOutside = driver
            }
            return .driver(driver)
          }
          registry.owners[id] = nil
          return .pass
        }
        if registry.isTestTask(id) {
          // The test's own task is enqueued: the job it ran before has ended.
          registry.forgetInitialJob(of: id)
          if target == .global { return .testTask(id) }
        }
      }
      switch registry.context(
        draining: draining, current: currentID, thread: thread, testTaskHere: testTaskHere)
      {
      case .driven(let context):
        // An actor's or a continuation's job belongs to the work that enqueues it. A task older
        // than the scheduler is never taken: a test awaiting a driven task, a runner awaiting the
        // test, a task the test started earlier.
        guard isTask else { return .driver(context) }
        guard id > context.watermark else { return .pass }
        registry.own(id, by: context)
        return .driver(context)
      case .test(let made):
        // A test's own code: its new tasks are driven, its hops to actors are its own.
        guard isTask, id > made.watermark else { return .pass }
        registry.own(id, by: made)
        return .driver(made)
      case .none:
        // A test on the main thread with no task (a synchronous XCTest method): hold the new
        // task for the scheduler the test drives next on this thread.
        guard currentID == nil, draining == nil, isTask, ThreadSlot.isMainThread,
          registry.latest(in: .thread(thread)) != nil
        else { return .pass }
        if registry.held[thread, default: []].isEmpty { releaseHeldJobs = thread }
        registry.held[thread, default: []].append(
          TaskDriver.ReadyJob(job: unsafeBitCast(job, to: UnownedJob.self), target: target))
        return .held
      }
    }
    if let releaseHeldJobs { releaseHeldJobsWhenTheMainThreadIsIdle(releaseHeldJobs) }
    resumedFromOutside?.noteResumptionFromOutside()
    return decision
  }

  /// The driver of the task running on this thread — which must be a task the driven world
  /// drives, not a test's own task — for a standard sleep it is starting (see
  /// ``VirtualSleeps``): the same decision, asked of the sleeping task.
  static func driverOfTheCurrentTask() -> (driver: TaskDriver, task: MarblesJobRef)? {
    guard !ThreadSlot.isBypassing, let task = swift_task_getCurrent() else { return nil }
    let id = swift_task_getJobTaskId(task)
    let draining = TaskDriver.current
    let thread = ThreadSlot.threadID
    let testTaskHere = ThreadSlot.testTask
    let driver = registry.withLock { registry -> TaskDriver? in
      guard
        case .driven(let driver) = registry.context(
          draining: draining, current: id, thread: thread, testTaskHere: testTaskHere),
        id > driver.watermark || registry.owners[id] != nil
      else { return nil }
      if registry.owners[id] == nil { registry.own(id, by: driver) }
      return driver
    }
    return driver.map { ($0, task) }
  }

  /// Runs a job of a test's own task on a thread of its own, with the thread marked as running
  /// that test's code while it runs.
  ///
  /// NB: on a serial queue per test task (a task runs one job at a time), not on the width-limited
  /// global queue: a test's job may block its thread — a drain waiting for the main actor — and
  /// two of them would starve every other block of the global queue, the one that frees the main
  /// actor included.
  private static func runAsTheTest(_ id: UInt64, _ job: UnownedJob) {
    let queue = registry.withLock { registry in
      if let queue = registry.testTaskQueues[id] { return queue }
      let queue = DispatchQueue(label: "marbles.test-task")
      registry.testTaskQueues[id] = queue
      return queue
    }
    queue.async {
      ThreadSlot.runningTestTask(id) {
        marbles_begin_step(marbles_clock_reading())
        swift_job_run(
          unsafeBitCast(job, to: MarblesJobRef.self),
          MarblesExecutorRef(identity: nil, implementation: 0))
      }
    }
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
    /// The test task whose job made a scheduler on each thread, while that job may still run
    /// there: the job the driven world did not start, so did not mark (see ``ThreadSlot/testTask``).
    /// Forgotten when the task is next enqueued, a job the driven world runs starts on the
    /// thread, or the driver goes away.
    var initialJobs: [UInt: UInt64] = [:]
    /// The queue each test task's jobs run on (see ``DrivenWorld/runAsTheTest(_:_:)``).
    var testTaskQueues: [UInt64: DispatchQueue] = [:]

    /// Whose code is enqueueing a job, or starting a sleep, on this thread.
    enum Enqueuer {
      /// Work a driver drives: what it enqueues, and the sleeps it starts, are that driver's.
      case driven(TaskDriver)
      /// A test's own code: the tasks it starts are driven by the latest scheduler it made;
      /// its own hops and sleeps are not.
      case test(TaskDriver)
      case none
    }

    /// Whose code is running on this thread.
    ///
    /// - Parameters:
    ///   - draining: The driver draining on this thread, if any.
    ///   - current: The current task, if any.
    ///   - thread: This thread.
    ///   - testTaskHere: The test task whose job the driven world runs on this thread, if any.
    mutating func context(
      draining: TaskDriver?, current: UInt64?, thread: UInt, testTaskHere: UInt64?
    ) -> Enqueuer {
      if let draining {
        guard !draining.hasLetGo else { return .none }
        // A task that runs inside driven work without having been enqueued — the first steps of
        // a `Task.immediate` that driven code starts — is driven work too.
        if let current, current > draining.watermark, owners[current] == nil,
          !isTestTask(current)
        {
          own(current, by: draining)
        }
        return .driven(draining)
      }
      guard let current else {
        // No task is current where a task switching executors enqueues itself: inside the
        // test's code, that is a task the test's code started (a `Task.immediate` leaving its
        // first steps).
        if let test = testTaskHere ?? (MainQueue.isCurrent ? initialJobs[thread] : nil),
          let made = latest(in: .task(test))
        {
          return .test(made)
        }
        return .none
      }
      if let owner = owners[current]?.driver {
        return owner.hasLetGo ? .none : .driven(owner)
      }
      if let made = latest(in: .task(current)) { return .test(made) }
      // A task running inside a test's own code on this thread that no executor ever ran: the
      // first steps of a `Task.immediate` the test's code starts. It is a task the test started.
      // Which test's code runs here is known exactly for the jobs the driven world starts (and,
      // on the main queue, for the job that made the scheduler); elsewhere the job that made the
      // scheduler may have ended unseen, so only a task in its synchronous start is taken there.
      let test =
        testTaskHere
        ?? (MainQueue.isCurrent || ThreadSlot.isSynchronousStart ? initialJobs[thread] : nil)
      if let test, test != current, let made = latest(in: .task(test)),
        current > made.watermark
      {
        own(current, by: made)
        return .driven(made)
      }
      return .none
    }

    /// Whether `id` is the task of a test that made a scheduler still alive.
    func isTestTask(_ id: UInt64) -> Bool {
      contexts[.task(id)] != nil
    }

    /// Forgets that the job which made a scheduler may still be running: `task` was enqueued
    /// again, so that job has ended.
    mutating func forgetInitialJob(of task: UInt64) {
      if initialJobs.values.contains(task) { initialJobs = initialJobs.filter { $0.value != task } }
    }

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
    let thread = ThreadSlot.threadID
    registry.withLock { registry in
      registry.contexts[context, default: []].append(DriverRef(driver))
      registry.drivers[ObjectIdentifier(driver)] = DriverRef(driver)
      // The job of the test's task running now was not started by the driven world, so its
      // thread is not marked as running the test's code: note it until that job ends.
      if case .task(let test) = context, ThreadSlot.testTask == nil {
        registry.initialJobs[thread] = test
      }
    }
    if case .task(let test) = context, ThreadSlot.testTask == nil, MainQueue.isCurrent {
      // On the main queue, the job ends before the next block runs.
      DispatchQueue.main.async {
        registry.withLock { registry in
          if registry.initialJobs[thread] == test { registry.initialJobs[thread] = nil }
        }
      }
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
      registry.initialJobs = registry.initialJobs.filter { registry.isTestTask($0.value) }
      registry.testTaskQueues = registry.testTaskQueues.filter { registry.isTestTask($0.key) }
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

  /// Runs a job on the main actor, on the main queue, asynchronously, outside any driver, with
  /// the main thread marked as running that job's task (which may be a test's).
  static func enqueueMain(_ job: UnownedJob) {
    DispatchQueue.main.async {
      ThreadSlot.runningTestTask(taskID(of: job) ?? ThreadSlot.noTask) {
        marbles_begin_step(marbles_clock_reading())
        job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
      }
    }
  }

  /// The id of the task `job` is a step of, or `nil` for a job that is not a task's.
  static func taskID(of job: UnownedJob) -> UInt64? {
    taskID(of: unsafeBitCast(job, to: MarblesJobRef.self))
  }

  /// The id of the task `job` is a step of, or `nil` for a job that is not a task's.
  static func taskID(of job: MarblesJobRef) -> UInt64? {
    marbles_job_is_task(job) != 0 ? swift_task_getJobTaskId(job) : nil
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
    VirtualSleeps.install()
    hookLock.withLock { ours in
      let installed = swift_task_enqueueGlobal_hook.map {
        unsafeBitCast($0, to: UnsafeRawPointer.self)
      }
      guard ours == nil || installed != ours else { return }
      swift_task_enqueueGlobal_hook = { job, original in
        if !DrivenWorld.take(job, on: .global) { ThreadSlot.bypassing { original(job) } }
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

  private static let testTaskKey = makeKey()

  /// Whether the current task runs the first steps of a `Task.immediate` from nonisolated code,
  /// in its caller: the runtime marks its executor so (generic, with kind 2).
  static var isSynchronousStart: Bool {
    let executor = swift_task_getCurrentExecutor()
    return executor.identity == nil && executor.implementation == 2
  }

  /// What ``testTask`` reads in a job that is not a task's.
  static let noTask = UInt64.max - 1

  /// The task whose job the driven world runs on this thread outside a drain — a test's own
  /// task, when it is one — or `nil` where it runs none (see ``runningTestTask(_:_:)``).
  static var testTask: UInt64? {
    pthread_getspecific(testTaskKey).map { UInt64(UInt(bitPattern: $0)) &- 1 }
  }

  /// Runs `body`, a job of task `id`, with this thread marked as running it.
  static func runningTestTask<Result>(_ id: UInt64, _ body: () throws -> Result) rethrows
    -> Result
  {
    let previous = pthread_getspecific(testTaskKey)
    pthread_setspecific(
      testTaskKey, UnsafeRawPointer(bitPattern: UInt(truncatingIfNeeded: id &+ 1)))
    defer { pthread_setspecific(testTaskKey, previous) }
    return try body()
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

/// Installs the driven world's hooks when the process loads: CMarbleRuntime's constructor calls
/// it, before the test runner starts a thread or a main-actor job.
@_cdecl("marbles_installDrivenWorld")
package func installDrivenWorldWhenTheProcessLoads() {
  DrivenWorld.installHooks()
}
