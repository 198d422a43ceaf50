import CMarbleRuntime

/// What the driven world asks of the Swift concurrency runtime about jobs and tasks: the small
/// interface behind which its internals stay (the C declarations are in `CMarbleRuntime`'s `swift_runtime.h`). Each
/// fact it relies on has a test named after it in the `RuntimeFacts` suite.
enum Jobs {
  /// The id of the task `job` is a step of, or `nil` for a job that is not a task's (an actor's
  /// or a continuation's). Task ids grow with creation.
  static func taskID(of job: UnownedJob) -> UInt64? {
    taskID(of: unsafeBitCast(job, to: MarblesJobRef.self))
  }

  /// The id of the task `job` is a step of, or `nil` for a job that is not a task's.
  static func taskID(of job: MarblesJobRef) -> UInt64? {
    marbles_job_is_task(job) != 0 ? swift_task_getJobTaskId(job) : nil
  }

  /// Whether `task` is an `async let`'s child, which its parent's scope frees (see
  /// `marbles_task_is_async_let`).
  static func isAsyncLetChild(_ task: MarblesJobRef) -> Bool {
    marbles_task_is_async_let(task) != 0
  }

  /// The task running on this thread, if any.
  static var currentTask: MarblesJobRef? {
    swift_task_getCurrent()
  }

  /// The id of the task running on this thread, if any.
  static var currentTaskID: UInt64? {
    swift_task_getCurrent().map { swift_task_getJobTaskId($0) }
  }

  /// Whether the current task runs the first steps of a `Task.immediate` from nonisolated code,
  /// in its caller: the runtime marks its executor so (generic, with kind 2).
  static var isSynchronousStart: Bool {
    marbles_is_synchronous_start() != 0
  }

  /// Whether `job` is a task's and that task has been cancelled.
  static func isCancelledTask(_ job: UnownedJob) -> Bool {
    let ref = unsafeBitCast(job, to: MarblesJobRef.self)
    return marbles_job_is_task(ref) != 0 && marbles_task_is_cancelled(ref) != 0
  }

  /// Cancels the task a job belongs to, if it is a task. The job must not have run yet.
  static func cancelTask(of job: UnownedJob) {
    let ref = unsafeBitCast(job, to: MarblesJobRef.self)
    if marbles_job_is_task(ref) != 0 { swift_task_cancel(ref) }
  }

  /// Sends a job to the global executor, past the hook.
  static func enqueueGlobal(_ job: UnownedJob) {
    ThreadSlot.bypassing { swift_task_enqueueGlobal(unsafeBitCast(job, to: MarblesJobRef.self)) }
  }

  /// Runs a job on the generic executor, on this thread, as the global executor would.
  static func runOnGenericExecutor(_ job: UnownedJob) {
    swift_job_run(
      unsafeBitCast(job, to: MarblesJobRef.self),
      MarblesExecutorRef(identity: nil, implementation: 0))
  }

  /// Whether the runtime knows the synchronous-start marker ``runNeverTakingAnActor(_:)`` runs a
  /// job on: Swift 6.2's, which `Task.immediate` brought. An older runtime (an Apple platform's
  /// before the 26 releases; written for, not built here) would take the marker for the plain
  /// generic executor, and take actors on the thread.
  static let knowsTheSynchronousStartMarker: Bool = {
    if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) { return true }
    return false
  }()

  /// Runs a task's job on this thread on the generic executor as `Task.immediate` runs its first
  /// steps from nonisolated code (`{NULL, 2}`, the runtime's synchronous-start marker): a switch
  /// between nonisolated functions goes on here at once, as on the generic executor, but a switch
  /// onto an actor is never made on this thread — the runtime enqueues the task on the actor, whose
  /// turn then comes as a job of its own.
  static func runNeverTakingAnActor(_ job: UnownedJob) {
    swift_job_run(
      unsafeBitCast(job, to: MarblesJobRef.self),
      MarblesExecutorRef(identity: nil, implementation: 2))
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

  /// Keeps a task alive (a retain).
  static func retain(_ task: MarblesJobRef) {
    _ = swift_retain(UnsafeMutableRawPointer(task))
  }

  /// Lets go of a task kept by ``retain(_:)``.
  static func release(_ task: MarblesJobRef) {
    swift_release(UnsafeMutableRawPointer(task))
  }

  /// Cancels a task (which must be alive).
  static func cancel(_ task: MarblesJobRef) {
    swift_task_cancel(task)
  }

  /// What a task is doing, read from its status: for the world's root and for deadlock reports.
  struct Status: Equatable {
    /// What a suspended task waits for.
    enum Dependency: Equatable {
      /// Another task's value (its id).
      case task(UInt64)
      /// A continuation: `withCheckedContinuation`, an `AsyncStream`'s `next()`, a sleep.
      case continuation
      /// The children of its task group.
      case group
      /// Its turn on an executor it is enqueued on (an actor, the main actor).
      case executor
    }

    var isRunning: Bool
    var isEnqueued: Bool
    var isComplete: Bool
    /// What it waits for, when it is suspended on something the runtime records.
    var dependency: Dependency?
  }

  /// The task `task` waits for the value of, if it waits for one (alive while it is waited for).
  static func awaitedTask(of task: MarblesJobRef) -> MarblesJobRef? {
    var object: UnsafeRawPointer?
    guard marbles_task_dependency(task, &object) == 1, let object else { return nil }
    return OpaquePointer(object)
  }

  /// Which wait `task` is in, as the runtime records it — its dependency record: the same value
  /// for as long as the task stays in one wait, another once it moved on. `nil` while it runs.
  static func waitIdentity(of task: MarblesJobRef) -> UInt? {
    var object: UnsafeRawPointer?
    let kind = marbles_task_dependency(task, &object)
    guard kind != 0 else { return nil }
    return UInt(bitPattern: object) &+ UInt(kind)
  }

  /// Whether `task` waits — directly, or through the tasks it awaits — for a task that runs or
  /// is enqueued to run.
  static func isAwaitingRunnableWork(_ task: MarblesJobRef) -> Bool {
    var current = task
    // NB: a chain of awaits is short; the bound only guards against a cycle read mid-change.
    for _ in 0..<64 {
      guard let awaited = Jobs.awaitedTask(of: current) else { return false }
      let status = Jobs.status(of: awaited)
      if status.isRunning || status.isEnqueued || status.isComplete { return true }
      current = awaited
    }
    return false
  }

  /// Whether `task`, which must be alive, has suspended for good: no thread runs it, and none
  /// will until something resumes it, which then enqueues it. Not while it runs, nor in the
  /// moment the runtime has flagged it suspended but may still go on on the same thread — a
  /// continuation not yet awaited, or resumed before it was; a task it awaits that has completed
  /// (see `marbles_task_has_suspended`).
  static func hasSuspended(_ task: MarblesJobRef) -> Bool {
    marbles_task_has_suspended(task) != 0
  }

  /// The status of `task`, which must be alive.
  static func status(of task: MarblesJobRef) -> Status {
    let flags = marbles_task_status(task)
    var object: UnsafeRawPointer?
    let dependency: Status.Dependency? =
      switch marbles_task_dependency(task, &object) {
      case 1: object.map { .task(swift_task_getJobTaskId(OpaquePointer($0))) } ?? .continuation
      case 2: .continuation
      case 3: .group
      case 4: .executor
      default: nil
      }
    return Status(
      isRunning: flags & 0x800 != 0, isEnqueued: flags & 0x1000 != 0,
      isComplete: flags & 0x2000 != 0, dependency: dependency)
  }
}
