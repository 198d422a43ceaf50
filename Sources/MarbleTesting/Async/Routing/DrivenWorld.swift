import CMarbleDriving
@_spi(Internals) import Signals
import Synchronization

/// Which ``TaskDriver`` — which test's ``TestScheduler`` — owns a job: the one routing decision
/// behind every runtime hook Marbles installs.
///
/// ## The design, in a paragraph
///
/// The Swift runtime lets a process replace where jobs go: the global executor's enqueue (which
/// every nonisolated task and every new `Task { }` passes through), the main actor's executor
/// (``MainActorRouter``), and — since Swift 6.3 — the default executor, which every standard sleep
/// asks to schedule its wake-up (``SleepRouter``). `Runtime/` installs them (``RuntimeHooks``
/// says when). Each asks ``take(_:on:)`` (a sleep asks the same question of the sleeping task,
/// ``driverOfTheCurrentTask()``) and either hands the job to that driver — which runs it inside
/// the scheduler's `advance`, `run` or `flush`, first in first out, main-actor jobs on the main
/// actor — or lets it go where it was going. The decision reads only the job and its enqueuing
/// context, never a process-wide mode, so tests run side by side under `--parallel`, each
/// scheduler driving only its own test's work (pointfreeco's `withMainSerialExecutor` instead
/// sends every job of the process to the main queue, which is why it cannot). A job belongs to a
/// driver when:
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
///    steps of a `Task.immediate` — or enqueued by one, an actor's job included (a first `await`
///    that hops to an actor enqueues the actor while the thread is still marked as running a
///    synchronous start, with no task current): the jobs of the test's own task run with their
///    thread marked (``ThreadSlot/testTask``), and the job that made the scheduler is noted until
///    it is known to have ended (``Registry/initialJobs``).
///
/// The rooms around it: `Time/` (one virtual clock per scheduler: readings, sleeps, Dispatch
/// timers), `TestTask/` (the bridge to the test's own task), `Reports/` (stalls and stuck tasks),
/// and `Runtime/` (everything that touches the runtime's internals).
///
/// ## Limits
///
/// - Tasks created before the scheduler, or by other tests, are never driven.
/// - Work on an actor with an executor of its own, on a thread, or on a Dispatch queue other than
///   through `asyncAfter` runs there, in real time. A driven task resumed from such a place comes
///   back to its driver, which notes it, and `flush()` names it when it reports a driven task that
///   is still waiting.
/// - A `Task.immediate` started by the test's code while it runs on an actor other than the main
///   actor is not known to be the test's.
/// - The main actor is the main queue: on Linux under `dispatch_main` a worker thread serves it,
///   on Apple platforms the main thread. A drain on another thread hands main-actor jobs over one
///   at a time and waits for each, and gives up (reporting it) if the main queue stays busy.
/// - It relies on facts about the runtime that are not public API; the `RuntimeFacts` suite has
///   a test named after each.
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
      TestTask.run(unsafeBitCast(job, to: UnownedJob.self), of: id)
      return true
    case .pass:
      return false
    }
  }

  /// How many drivers are alive: with none, every job passes without a look at the registry.
  static let liveDriverCount = Atomic(0)

  /// The routing decision (see the top of this file). A job held for its thread is queued for it
  /// here, under the registry's lock, so that a drain adopting the thread's jobs sees them in order.
  private static func decide(_ job: MarblesJobRef, target: TaskDriver.Target) -> Decision {
    guard liveDriverCount.load(ordering: .relaxed) > 0, !ThreadSlot.isBypassing else {
      return .pass
    }
    let jobTask = Jobs.taskID(of: job)
    let isTask = jobTask != nil
    let id = jobTask ?? 0
    let draining = TaskDriver.current
    let currentID = Jobs.currentTaskID
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
    if let releaseHeldJobs { TestTask.releaseHeldJobsWhenTheMainThreadIsIdle(releaseHeldJobs) }
    resumedFromOutside?.noteResumptionFromOutside()
    return decision
  }

  /// The driver of the task running on this thread — which must be a task the driven world
  /// drives, not a test's own task — for a standard sleep it is starting (see
  /// ``VirtualSleeps``): the same decision, asked of the sleeping task.
  static func driverOfTheCurrentTask() -> (driver: TaskDriver, task: MarblesJobRef)? {
    guard liveDriverCount.load(ordering: .relaxed) > 0, !ThreadSlot.isBypassing,
      let task = Jobs.currentTask
    else { return nil }
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

  /// The driver whose time the code running here reads: the one whose work this thread runs, or
  /// the latest scheduler still alive of the test whose code runs here (its task, or its thread
  /// where no task is current).
  static func driverOfTheCodeHere() -> TaskDriver? {
    if let draining = TaskDriver.current { return draining.hasLetGo ? nil : draining }
    guard liveDriverCount.load(ordering: .relaxed) > 0 else { return nil }
    let task = ThreadSlot.testTask ?? Jobs.currentTaskID
    let context: Context = task.map { .task($0) } ?? .thread(ThreadSlot.threadID)
    return registry.withLock { registry in
      if let task, let owner = registry.owners[task]?.driver, !owner.hasLetGo { return owner }
      return registry.latest(in: context)
    }
  }

  /// Whether the code running on this thread is a test's own code for `driver`: the task, or
  /// the thread with no task, that made it.
  static func isTestCode(of driver: TaskDriver) -> Bool {
    let task = Jobs.currentTaskID
    let thread = task == nil ? ThreadSlot.threadID : nil
    return registry.withLock { $0.isTestCode(of: driver, task: task, thread: thread) }
  }
}
