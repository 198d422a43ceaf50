import CMarbleDriving
import Dispatch

/// What a thread is doing for the driven world: which driver's work it runs, whether the hooks
/// let its jobs pass, and which test task's job it runs.
///
/// NB: thread-specific rather than task-local: the drain loop runs outside the tasks it drives,
/// and the hooks must know the driver whether the enqueuer is a driven task, an action of the
/// scheduler, or a job of an unstructured task.
enum ThreadSlot {
  static let driver = ThreadLocalSlot()
  private static let bypass = ThreadLocalSlot()
  private static let testTaskSlot = ThreadLocalSlot()

  /// Whether this is the process's main thread (where XCTest runs its tests).
  static var isMainThread: Bool {
    marbles_is_main_thread() != 0
  }

  /// This thread, as a number.
  static var threadID: UInt { Platform.threadID }

  /// What ``testTask`` reads in a job that is not a task's.
  static let noTask = UInt64.max - 1

  /// The task whose job the driven world runs on this thread outside a drain — a test's own
  /// task, when it is one — or `nil` where it runs none (see ``runningTestTask(_:_:)``).
  static var testTask: UInt64? {
    testTaskSlot.value.map { UInt64(UInt(bitPattern: $0)) &- 1 }
  }

  /// Runs `body`, a job of task `id`, with this thread marked as running it.
  static func runningTestTask<Result>(_ id: UInt64, _ body: () throws -> Result) rethrows
    -> Result
  {
    try testTaskSlot.with(UnsafeRawPointer(bitPattern: UInt(truncatingIfNeeded: id &+ 1)), body)
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
