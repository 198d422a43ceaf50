import CMarbleDriving
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// The bridge to the test's own task — the task (or, in a synchronous XCTest method, the thread)
/// whose code made a scheduler. It is not driven: the test runs it. But from when it makes a
/// scheduler until that scheduler is released (the latest, if several), it lives in the
/// scheduler's time:
///
/// - its readings of time are the scheduler's, so code under test called from the test body (an
///   `init` that stamps `Date.now`) reads the same clock as the tasks it starts;
/// - a standard sleep in it is `advance(by:)` on the scheduler (``sleep(_:for:)``);
/// - the tasks it starts are driven (the routing decision's rules 3 and 4), which needs its jobs
///   marked: the driven world runs them (``run(_:of:)``, ``enqueueMain(_:)``), and notes the job
///   that made the scheduler, which it did not start, until it ends.
///
/// Swift Testing's and XCTest's own readings stay real where they are made outside the
/// scheduler's life — before the test body makes it, after it is released.
enum TestTask {
  // MARK: The job that made the scheduler

  /// A scheduler was made by the test's code running now: its readings are the scheduler's until
  /// this job ends.
  static func madeScheduler(_ driver: TaskDriver, in context: DrivenWorld.Context) {
    if case .task(let test) = context, ThreadSlot.testTask == nil, MainQueue.isCurrent {
      // On the main queue, the job ends before the next block runs.
      let thread = ThreadSlot.threadID
      DispatchQueue.main.async {
        DrivenWorld.registry.withLock { registry in
          if registry.initialJobs[thread] == test { registry.initialJobs[thread] = nil }
        }
      }
    }
    // With no task (an XCTest method that is not async, run on the main thread), the thread's
    // readings are the scheduler's while no task runs on it, until the scheduler is released.
    let task = Jobs.currentTask.map { UnsafeRawPointer($0) }
    driver.clock.readByTheRunningJob(
      of: task, onTheMainQueue: task != nil && ThreadSlot.testTask == nil && MainQueue.isCurrent)
  }

  // MARK: The test's jobs

  /// Runs a job of a test's own task, bound for the global executor, on a thread of its own, with
  /// the thread marked as running that test's code and reading its scheduler's time.
  ///
  /// NB: on a serial queue per test task (a task runs one job at a time), not on the width-limited
  /// global queue: a test's job may block its thread — a drain waiting for the main actor — and
  /// two of them would starve every other block of the global queue, the one that frees the main
  /// actor included.
  static func run(_ job: UnownedJob, of id: UInt64) {
    let (queue, driver) = DrivenWorld.registry.withLock { registry in
      let driver = registry.latest(in: .task(id))
      if let queue = registry.testTaskQueues[id] { return (queue, driver) }
      let queue = DispatchQueue(label: "marbles.test-task")
      registry.testTaskQueues[id] = queue
      return (queue, driver)
    }
    let clock = driver?.clock
    queue.async {
      ThreadSlot.runningTestTask(id) {
        if let clock {
          clock.reading { Jobs.runOnGenericExecutor(job) }
        } else {
          Jobs.runOnGenericExecutor(job)
        }
      }
    }
  }

  /// Runs a job on the main actor, on the main queue, asynchronously, outside any driver, with
  /// the main thread marked as running that job's task — and, for a test's own task, reading its
  /// scheduler's time.
  static func enqueueMain(_ job: UnownedJob) {
    DispatchQueue.main.async {
      let task = Jobs.taskID(of: job)
      let clock = task.flatMap { task in
        DrivenWorld.registry.withLock { $0.latest(in: .task(task))?.clock }
      }
      ThreadSlot.runningTestTask(task ?? ThreadSlot.noTask) {
        if let clock {
          clock.reading {
            job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
          }
        } else {
          job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
        }
      }
    }
  }

  // MARK: Sleeps

  /// A standard sleep of the test's own task, once it made a scheduler: `advance` on the latest
  /// scheduler it made to the tick of the deadline, and resume when that call returns (the
  /// runtime's wake-up job runs in it, before the sleeping task has even suspended).
  ///
  /// A call that stops short of the deadline — at the step limit, for a main actor that never came
  /// free, or refused because another thread drives the scheduler — records its failure on the
  /// scheduler (the next assertion reports it), and the sleep ends then, at the tick reached.
  ///
  /// - Returns: `false` if the current task is not a test's with a scheduler alive.
  static func sleep(_ wake: UnownedJob, for remaining: Duration) -> Bool {
    guard TaskDriver.current == nil, let task = Jobs.currentTask,
      let driver = testDriver(of: swift_task_getJobTaskId(task)), let core = driver.core,
      let sleep = driver.sleep(task, wake: wake, for: remaining)
    else { return false }
    _ = core.advance(to: sleep.wakeTick)
    if driver.forget(sleep) { sleep.endEarly() }
    return true
  }

  /// The latest driver alive that test task `id` made, if it is a test's.
  private static func testDriver(of id: UInt64) -> TaskDriver? {
    DrivenWorld.registry.withLock { $0.latest(in: .task(id)) }
  }

  // MARK: Held jobs

  /// Adopts the tasks held for this thread into `driver`, if the driver was made on this thread
  /// (a drain's first step); the held tasks older than the driver go where they were going.
  static func adoptHeldJobs(into driver: TaskDriver) {
    let thread = ThreadSlot.threadID
    let held = DrivenWorld.registry.withLock {
      registry -> [(job: TaskDriver.ReadyJob, isAdopted: Bool)] in
      guard registry.held[thread] != nil,
        registry.contexts[.thread(thread)]?.contains(where: { $0.id == ObjectIdentifier(driver) })
          == true
      else { return [] }
      return (registry.held.removeValue(forKey: thread) ?? []).map { job in
        let id = Jobs.taskID(of: job.job) ?? 0
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
  static func releaseHeldJobsWhenTheMainThreadIsIdle(_ thread: UInt) {
    DispatchQueue.main.async {
      let held = DrivenWorld.registry.withLock { registry -> [TaskDriver.ReadyJob] in
        let held = registry.held.removeValue(forKey: thread) ?? []
        if let made = registry.latest(in: .thread(thread)) {
          for job in held {
            let id = Jobs.taskID(of: job.job) ?? 0
            registry.contexts[.task(id), default: []].append(DrivenWorld.DriverRef(made))
          }
        }
        return held
      }
      for job in held { TaskDriver.release(job, cancelling: false) }
    }
  }
}
