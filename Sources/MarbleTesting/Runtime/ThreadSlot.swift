import CMarbleRuntime
import Dispatch

/// What a thread is doing for a world: which driver's work it runs, and whether the hooks let its
/// jobs pass.
///
/// NB: thread-specific rather than task-local: a drain runs outside the tasks it drives, and the
/// hooks must know the driver whether the enqueuer is a driven task, an action of the scheduler,
/// or a job of an unstructured task.
enum ThreadSlot {
  /// The driver of the mark, retained by the slot (a mark can outlive the job it was made for,
  /// and its driver the world that made it); released when the mark is replaced or its thread
  /// ends.
  private static let driver = ThreadLocalSlot { pointer in
    pointer.map { Unmanaged<TaskDriver>.fromOpaque($0).release() }
  }
  /// The task whose job the driver's mark is for (see ``enter(_:forTask:)``), retained by the
  /// slot like the driver; or ``anyCode``, or ``noTask``.
  private static let markedTask = ThreadLocalSlot { pointer in
    if let pointer, UInt(bitPattern: pointer) > 2 { Jobs.release(OpaquePointer(pointer)) }
  }
  private static let bypass = ThreadLocalSlot()

  /// What ``markedTask`` holds for a mark of the whole thread (a drain).
  private static var anyCode: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 1)! }
  /// What ``markedTask`` holds for a mark of the code that runs while no task is current.
  private static var noTask: UnsafeRawPointer { UnsafeRawPointer(bitPattern: 2)! }

  /// Whether this is the process's main thread (where XCTest runs its tests).
  static var isMainThread: Bool {
    marbles_is_main_thread() != 0
  }

  /// This thread, as a number.
  static var threadID: UInt { Platform.threadID }

  /// Makes `pointer` the driver of this thread's mark: the slot retains it, and releases the
  /// driver it held.
  private static func setDriver(_ pointer: UnsafeRawPointer?) {
    let old = driver.value
    guard old != pointer else { return }
    if let pointer { _ = Unmanaged<TaskDriver>.fromOpaque(pointer).retain() }
    driver.set(pointer)
    if let old { Unmanaged<TaskDriver>.fromOpaque(old).release() }
  }

  /// Makes `task` (or a sentinel) the marked task: the slot retains a task, and releases the one
  /// it held.
  private static func setMarkedTask(_ task: UnsafeRawPointer?) {
    let old = markedTask.value
    guard old != task else { return }
    if let task, isTask(task) { Jobs.retain(OpaquePointer(task)) }
    markedTask.set(task)
    if let old, isTask(old) { Jobs.release(OpaquePointer(old)) }
  }

  private static func isTask(_ pointer: UnsafeRawPointer) -> Bool {
    pointer != anyCode && pointer != noTask
  }

  /// The driver whose work this thread runs now, if any: the one of a drain, or of the job a
  /// mark was made for while that job runs (a `Task.immediate`'s first steps inside it count).
  ///
  /// A job's mark is made together with the thread's clock scope (``TaskDriver/enterRunningJob(of:)``),
  /// and whether it stands for the code running now is the scope's decision
  /// (`marbles_scope_here`), the one the readings of time take too.
  static var runningDriver: UnsafeRawPointer? {
    guard let pointer = driver.value else { return nil }
    guard let task = markedTask.value, task != anyCode else { return pointer }
    switch marbles_scope_here() {
    case MARBLES_HERE_SCOPED:
      return pointer
    case MARBLES_HERE_OTHER_CODE:
      // Another task's job inside a thread root's code: the mark stays for the root's code.
      return nil
    default:
      // The marked job has ended (or its scheduler's clock was let go).
      setDriver(nil)
      setMarkedTask(nil)
      return nil
    }
  }

  /// The driver of this thread's job mark while its task is in transit: no task is current here,
  /// and the marked task is not running but enqueued — the runtime is switching it onto an
  /// actor's or the main actor's queue, and the jobs enqueued meanwhile (the actor's own job) are
  /// its move. (A mark made in a task's job that opened a world lasts until that job ends; the
  /// switch that ends it enqueues the actor's job with no task current.)
  static var driverOfTaskInTransit: UnsafeRawPointer? {
    guard let pointer = driver.value, let task = markedTask.value, isTask(task),
      Jobs.currentTask == nil
    else { return nil }
    let status = Jobs.status(of: OpaquePointer(task))
    guard status.isEnqueued, !status.isRunning, !status.isComplete else { return nil }
    return pointer
  }

  /// Whether the code running here is a thread root's own (a synchronous test, marked while no
  /// task is current), not work a drain or a loop runs.
  static var isRootThreadCode: Bool {
    markedTask.value == noTask && Jobs.currentTask == nil && driver.value != nil
  }

  /// Runs `body` with this thread running `pointer`'s work, then puts the old mark back.
  static func running<Result>(_ pointer: UnsafeRawPointer, _ body: () throws -> Result) rethrows
    -> Result
  {
    try marked(pointer, task: anyCode, body)
  }

  /// Runs `body` as code of no world — the thread's mark off, so that what it enqueues is taken
  /// as anything outside is (a world's root still goes to its world) — then puts the old mark
  /// back.
  static func outsideAnyWorld<Result>(_ body: () throws -> Result) rethrows -> Result {
    try marked(nil, task: nil, body)
  }

  /// Runs `body` with the mark `pointer` and `task`, then puts the old mark back.
  private static func marked<Result>(
    _ pointer: UnsafeRawPointer?, task: UnsafeRawPointer?, _ body: () throws -> Result
  ) rethrows -> Result {
    let previous = (driver.value, markedTask.value)
    // What the old mark holds stays alive while the slots hold another.
    if let old = previous.0 { _ = Unmanaged<TaskDriver>.fromOpaque(old).retain() }
    if let old = previous.1, isTask(old) { Jobs.retain(OpaquePointer(old)) }
    setDriver(pointer)
    setMarkedTask(task)
    defer {
      setDriver(previous.0)
      setMarkedTask(previous.1)
      if let old = previous.0 { Unmanaged<TaskDriver>.fromOpaque(old).release() }
      if let old = previous.1, isTask(old) { Jobs.release(OpaquePointer(old)) }
    }
    return try body()
  }

  /// Marks the job running on this thread — `task`'s, or the code running while no task is
  /// current — as `pointer`'s work, until it ends. Inside a drain or a job a world's loop runs
  /// (``running(_:_:)``), the mark is the run's, which ends with it.
  ///
  /// - Returns: Whether the mark is the run's (it then lasts as long as the run).
  @discardableResult
  static func enter(_ pointer: UnsafeRawPointer, forTask task: UnsafeRawPointer?) -> Bool {
    let isInARun = driver.value != nil && markedTask.value == anyCode
    setDriver(pointer)
    if !isInARun { setMarkedTask(task ?? noTask) }
    return isInARun
  }

  /// Ends a mark made by ``enter(_:forTask:)``.
  static func leave() {
    setDriver(nil)
    setMarkedTask(nil)
  }

  /// Whether jobs enqueued on this thread now skip the hooks.
  static var isBypassing: Bool {
    bypass.value != nil
  }

  /// Runs `body` with the hooks letting this thread's jobs pass.
  static func bypassing<Result>(_ body: () throws -> Result) rethrows -> Result {
    try bypass.with(UnsafeRawPointer(bitPattern: 1), body)
  }
}
