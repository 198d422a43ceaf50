import CMarbleDriving
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// The drivers alive, the tests that made them, and the tasks each owns: what the routing decision
/// reads.
extension DrivenWorld {
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
    /// The queue each test task's jobs run on (see ``TestTask/run(_:of:)``).
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
        // No task is current where a task switching executors enqueues itself. Still marked as
        // running a synchronous start, it is a `Task.immediate` leaving its first steps — to an
        // actor (its job is the actor's), or to the generic executor — inside the test's code:
        // a task the test's code started, driven from here on.
        if Jobs.isSynchronousStart, let test = testTaskHere ?? initialJobs[thread],
          let made = latest(in: .task(test))
        {
          return .driven(made)
        }
        // Elsewhere inside the test's code, the test's own task switching executors.
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
        ?? (MainQueue.isCurrent || Jobs.isSynchronousStart ? initialJobs[thread] : nil)
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

  /// Records a new driver as made in `context` (see ``currentContext``), and makes its clock the
  /// one the test's code reads from now on; installs the hooks at the first.
  static func register(_ driver: TaskDriver, madeIn context: Context) {
    RuntimeHooks.schedulerBegins()
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
    liveDriverCount.add(1, ordering: .releasing)
    TestTask.madeScheduler(driver, in: context)
    Watchdog.start()
  }

  /// Forgets a driver that is going away, and the tasks it owned.
  static func unregister(_ driver: ObjectIdentifier) {
    let wasRegistered = registry.withLock { registry -> Bool in
      guard registry.drivers.removeValue(forKey: driver) != nil else { return false }
      for (context, made) in registry.contexts {
        let others = made.filter { $0.id != driver }
        registry.contexts[context] = others.isEmpty ? nil : others
      }
      for id in registry.ownedIDs.removeValue(forKey: driver) ?? [] { registry.owners[id] = nil }
      registry.initialJobs = registry.initialJobs.filter { registry.isTestTask($0.value) }
      registry.testTaskQueues = registry.testTaskQueues.filter { registry.isTestTask($0.key) }
      return true
    }
    guard wasRegistered else { return }
    liveDriverCount.subtract(1, ordering: .releasing)
    RuntimeHooks.schedulerEnds()
  }

  /// The code running on this thread: a task, or the thread where no task is current.
  static var currentContext: Context {
    Jobs.currentTaskID.map { .task($0) } ?? .thread(ThreadSlot.threadID)
  }

  /// Every driver alive.
  static var liveDrivers: [TaskDriver] {
    registry.withLock { $0.drivers.values.map(\.driver) }
  }
}
