import CMarbleRuntime
@_spi(Internals) import Signals
import Synchronization

/// The standard library's own sleeps — `Task.sleep(for:)`, `Task.sleep(nanoseconds:)`,
/// `Task.sleep(until:clock:)`, `ContinuousClock` and `SuspendingClock` — in virtual time.
///
/// Every standard sleep reaches the default executor (``SleepRouter`` explains why), which asks
/// here where its wake-up goes: a task of a world — its root included — sleeps on the virtual
/// time of the scheduler it belongs to (``Membership/driver(ofCurrentTask:)``), on the queue
/// `scheduler.clock` sleeps use, and resumes inside the `advance`, `run` or `flush` that reaches
/// its tick, or in its world's loop while the test waits. Anything else sleeps in real time.
///
/// ## Deadlines are taken literally
///
/// The deadline is an instant of the sleep's clock, read where the sleep starts — in a world that
/// reading is virtual, so the sleep wakes at the tick the deadline is in, rounded up, however it
/// was computed: read before an `await`, advanced from the last deadline, read on another thread.
enum VirtualSleeps {
  /// Takes a standard sleep of the current task into virtual time, if it belongs there.
  ///
  /// - Parameters:
  ///   - wake: The runtime's wake-up job for the sleeping task.
  ///   - remaining: How far the deadline is from now, as the sleeping code reads time.
  /// - Returns: `false` if the sleep is a real one.
  static func take(_ wake: UnownedJob, for remaining: Duration) -> Bool {
    guard let task = Jobs.currentTask, let driver = Membership.driver(ofCurrentTask: task) else {
      return false
    }
    return driver.sleep(task, wake: wake, for: remaining) != nil
  }
}

extension TaskDriver {
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

  /// Puts a standard sleep on the scheduler's virtual time: its wake-up job runs at
  /// `now + ceil(remaining / tick)` (at once for a deadline at or before now).
  ///
  /// - Parameters:
  ///   - task: The sleeping task (the current one).
  ///   - wake: The runtime's wake-up job for it.
  ///   - remaining: How far the deadline is from the scheduler's now.
  /// - Returns: The sleep, or `nil` if the scheduler is gone or let its work go: the sleep is a
  ///   real one.
  @discardableResult
  func sleep(_ task: MarblesJobRef, wake: UnownedJob, for remaining: Duration) -> StandardSleep? {
    guard let core else { return nil }
    let sleep = StandardSleep(
      task: task, wake: wake, wakeTick: core.now.clampedAdding(core.ticks(remaining)))
    let isRegistered = watch.withLock { watch in
      guard watch.abandonment == nil, let id = sleep.taskID else { return false }
      watch.standardSleeps[id] = sleep
      standardSleepCount.add(1, ordering: .releasing)
      return true
    }
    guard isRegistered else {
      sleep.discard()
      return nil
    }
    sleep.scheduled(
      core.scheduleWakeUp(at: sleep.wakeTick, task: sleep.taskID) { [self] in
        if forget(sleep) { sleep.wakeUp(on: self) }
      })
    world?.wake()
    return sleep
  }

  /// Ends early the standard sleep of the task `job` belongs to, if it has one: the task came
  /// back before the sleep's tick, which only its cancellation does.
  func endStandardSleepEarly(of job: UnownedJob) {
    guard let id = Jobs.taskID(of: job) else { return }
    let sleep = watch.withLock { $0.standardSleeps[id] }
    if let sleep, forget(sleep) { sleep.endEarly() }
  }

  /// Forgets a standard sleep that is ending.
  ///
  /// - Returns: Whether it was still recorded (a give-up may have taken it).
  func forget(_ sleep: StandardSleep) -> Bool {
    watch.withLock { watch in
      guard let id = sleep.taskID, let recorded = watch.standardSleeps.removeValue(forKey: id)
      else { return false }
      // NB: a task sleeps once at a time; a sleep that ended is not the one recorded.
      guard recorded === sleep else {
        watch.standardSleeps[id] = recorded
        return false
      }
      standardSleepCount.subtract(1, ordering: .releasing)
      return true
    }
  }
}
