import CMarbleDriving
@_spi(Internals) import Signals
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs the async work of one ``TestScheduler`` — its tasks' jobs — on the scheduler's own thread,
/// inside `advance`, `run` and `flush`, so that async code moves in virtual time, deterministically.
///
/// ## How jobs get here
///
/// A job is a piece of a task between two suspension points. Jobs reach the driver in two ways:
///
/// - **Tasks the scheduler starts** (`scheduler.task { … }`, `record(sequence)`) are created with
///   this driver as their *task executor preference* (SE-0417). Their jobs — and those of their
///   child tasks, `async let`s and task groups, which inherit the preference — are always enqueued
///   here, whoever resumes them.
/// - **Unstructured tasks that code under test creates** (`Task { … }` inside
///   swift-async-algorithms' `debounce`, say) do not inherit a preference. Their jobs go to the
///   global executor, through the runtime's process-wide hook (`swift_task_enqueueGlobal_hook`,
///   the hook swift-async-algorithms' `AsyncSequenceValidation` uses). The hook routes a job to the
///   driver whose scheduler is running work *on the thread that enqueues it* — a thread-local that
///   the drain loop sets while it runs an action or a job — and hands every other job to the
///   global executor as usual. So a task created, or a continuation resumed, while a scheduler
///   drives its work belongs to that scheduler; work of other tests, on other threads, is never
///   touched, and many schedulers drive side by side under `swift test --parallel`.
///
/// ## Order
///
/// The drain loop runs every ready job, first in first out, before each action and before it
/// returns: async work that an action makes ready (a sleep that ends, a value a signal sends) runs
/// before virtual time moves, and the same input gives the same interleaving every time.
///
/// ## Limits
///
/// - Work that must run on the main actor, or on an actor with its own executor, goes there and
///   is not driven: it runs when that executor gets to it, outside virtual time.
/// - An unstructured task resumed from outside a drain — by a real clock, a Dispatch queue, a
///   thread — goes to the global executor and runs in real time. A task waiting on such a thing
///   is reported by `flush()` (in `Marbles`) rather than awaited.
package final class TaskDriver: TaskExecutor {
  /// The ready jobs, in the order they became ready.
  private let ready = Locked(FIFOQueue<UnownedJob>())
  /// How many jobs are ready: read without the lock, so that a drain with no async work checks
  /// for jobs without taking it between actions.
  private let readyCount = Atomic(0)

  package init() {
    TaskDriver.installHook()
  }

  /// Takes a job that is ready to run; it runs at the scheduler's next drain.
  package func enqueue(_ job: consuming ExecutorJob) {
    makeReady(UnownedJob(job))
  }

  private func makeReady(_ job: UnownedJob) {
    ready.withLock { ready in
      ready.append(job)
      readyCount.add(1, ordering: .releasing)
    }
  }

  /// How many jobs are ready to run.
  package var readyJobCount: Int {
    readyCount.load(ordering: .acquiring)
  }

  /// Takes the next ready job, if any.
  func takeReadyJob() -> UnownedJob? {
    guard readyCount.load(ordering: .acquiring) > 0 else { return nil }
    return ready.withLock { ready in
      let job = ready.popFirst()
      if job != nil { readyCount.subtract(1, ordering: .releasing) }
      return job
    }
  }

  /// Puts a job taken but not run back, first in line.
  func putBack(_ job: UnownedJob) {
    ready.withLock { ready in
      ready.pushFirst(job)
      readyCount.add(1, ordering: .releasing)
    }
  }

  /// Runs `job` on this thread, with this driver as the current task executor. Call it inside
  /// ``withCurrentDriver(_:)``.
  func run(_ job: UnownedJob) {
    job.runSynchronously(on: asUnownedTaskExecutor())
  }

  // MARK: The driver whose work this thread runs

  /// Runs `body` with this driver recorded as the one whose work this thread is running, so that
  /// the jobs enqueued meanwhile come here.
  package func withCurrentDriver<Result>(_ body: () throws -> Result) rethrows -> Result {
    let key = Self.currentKey
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(self).toOpaque())
    defer { pthread_setspecific(key, previous) }
    return try body()
  }

  /// The driver whose work this thread is running, if any.
  static var current: TaskDriver? {
    guard let pointer = pthread_getspecific(currentKey) else { return nil }
    return Unmanaged<TaskDriver>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// NB: a thread-specific slot rather than a task-local: the drain loop runs outside the tasks
  /// it drives, and the hook must find the driver whether the enqueuer is a driven task, an action
  /// of the scheduler, or a job of an unstructured task.
  private static let currentKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  // MARK: The global hook

  /// The hook's job router: a job enqueued while a driver's work runs on this thread goes to that
  /// driver; any other goes to the global executor.
  private static func route(_ job: MarblesJobRef, _ original: MarblesEnqueueGlobalOriginal) {
    guard let driver = TaskDriver.current else { return original(job) }
    driver.makeReady(unsafeBitCast(job, to: UnownedJob.self))
  }

  /// Installs the router as the runtime's global-enqueue hook, unless it is installed already.
  ///
  /// NB: checked for every new driver: another library (swift-async-algorithms'
  /// `AsyncSequenceValidation`) may have set the hook, or cleared it, since.
  static func installHook() {
    hookLock.withLock { ours in
      let installed = swift_task_enqueueGlobal_hook.map {
        unsafeBitCast($0, to: UnsafeRawPointer.self)
      }
      guard ours == nil || installed != ours else { return }
      swift_task_enqueueGlobal_hook = { job, original in TaskDriver.route(job, original) }
      ours = swift_task_enqueueGlobal_hook.map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
    }
  }

  /// Our hook's address, once installed.
  ///
  /// NB: `Locked`, not a bare `Mutex`: its handoff is visible to the thread sanitizer.
  private static let hookLock = Locked<UnsafeRawPointer?>(nil)
}
