import CMarbleRuntime
@_spi(Internals) import Signals
import Synchronization

/// One standard-library sleep of a driven task, in virtual time (see ``VirtualSleeps``): the
/// runtime's wake-up job, held until the scheduler reaches the wake tick.
///
/// It ends once, in one of three ways:
/// - the scheduler reaches its tick: the wake-up job runs in the drain and resumes the task;
/// - the sleeping task is resumed first — only its cancellation does that — which the driver sees
///   when the task's job comes back to it: the wake-up action is disposed at once, so nothing is
///   left scheduled, and the wake-up job, run once the cancelling job returns, only frees the
///   sleep's state;
/// - the driver lets its work go: the task is cancelled, which resumes it throwing
///   `CancellationError`, and the wake-up job is let go the same way.
final class StandardSleep: AbandonableSleep {
  private enum State {
    case pending(wakeUp: (any Disposable)?)
    case ended
  }

  let taskID: UInt64?
  let wakeTick: Int
  /// The sleeping task, retained while the sleep is pending, so that a give-up may cancel it.
  ///
  /// NB: retained in `init`, released once, by whichever way ends the sleep.
  private nonisolated(unsafe) let task: MarblesJobRef
  /// The runtime's wake-up task: run, it resumes the sleeping task, or frees the sleep's state
  /// if the sleep was cancelled.
  private let wake: UnownedJob
  private let state = Mutex(State.pending(wakeUp: nil))

  init(task: MarblesJobRef, wake: UnownedJob, wakeTick: Int) {
    Jobs.retain(task)
    self.task = task
    self.wake = wake
    self.wakeTick = wakeTick
    taskID = swift_task_getJobTaskId(task)
  }

  /// Gives the sleep its scheduled wake-up, unless it ended meanwhile (then disposes it).
  func scheduled(_ wakeUp: any Disposable) {
    let isPending = state.withLock { state -> Bool in
      guard case .pending = state else { return false }
      state = .pending(wakeUp: wakeUp)
      return true
    }
    if !isPending { wakeUp.dispose() }
  }

  /// Ends the sleep if it is pending.
  ///
  /// - Returns: Whether this call ended it, and its wake-up action if it had one.
  private func end() -> (ended: Bool, wakeUp: (any Disposable)?) {
    state.withLock { state in
      guard case .pending(let wakeUp) = state else { return (false, nil) }
      state = .ended
      return (true, wakeUp)
    }
  }

  /// The scheduler reached the wake tick: the wake-up job runs in `driver`'s drain.
  func wakeUp(on driver: TaskDriver) {
    guard end().ended else { return }
    driver.runWakeUp(wake)
    Jobs.release(task)
  }

  /// The sleeping task was resumed before the wake tick (it was cancelled): the wake-up job is
  /// freed by the driver whose work cancelled it, or on the runtime's executor where no driven
  /// work did.
  func endEarly() {
    let (ended, wakeUp) = end()
    guard ended else { return }
    wakeUp?.dispose()
    if let driver = TaskDriver.current {
      driver.freeEndedSleep(wake)
    } else {
      Jobs.enqueueGlobal(wake)
    }
    Jobs.release(task)
  }

  /// Forgets a sleep that was never scheduled (the driver had let its work go): the wake-up job
  /// is the caller's again.
  func discard() {
    guard end().ended else { return }
    Jobs.release(task)
  }

  /// The driver let its work go: cancels the sleeping task, if asked, which then resumes throwing
  /// `CancellationError`, and lets the wake-up job go (which resumes an uncancelled one).
  func abandon(cancellingItsTask: Bool) {
    let (ended, wakeUp) = end()
    guard ended else { return }
    wakeUp?.dispose()
    if cancellingItsTask { Jobs.cancel(task) }
    Jobs.enqueueGlobal(wake)
    Jobs.release(task)
  }
}
