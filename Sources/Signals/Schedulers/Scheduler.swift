/// Where and when work runs. Every time-based operator takes one, so a test can pass a
/// `TestScheduler` and drive time by hand instead of waiting on a clock.
///
/// Each method returns a disposable; disposing it before the action runs means it never runs, and
/// disposing a repeating action stops it.
public protocol Scheduler: Sendable {
  /// Runs `action` as soon as possible.
  ///
  /// - Parameter action: The work to run.
  /// - Returns: A disposable that cancels the action if it has not run yet.
  @discardableResult
  func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable

  /// Runs `action` once `delay` has passed.
  ///
  /// - Parameters:
  ///   - delay: How long to wait; zero or negative means as soon as possible.
  ///   - action: The work to run.
  /// - Returns: A disposable that cancels the action if it has not run yet.
  @discardableResult
  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable

  /// Runs `action` once `delay` has passed, then every `interval`.
  ///
  /// - Parameters:
  ///   - delay: How long to wait before the first run.
  ///   - interval: The time between runs; must be positive.
  ///   - action: The work to run each time.
  /// - Returns: A disposable that stops the repetition.
  @discardableResult
  func schedule(
    after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable
}

/// A scheduler whose operators keep a stand-in instead of the scheduler itself.
///
/// A `TestScheduler` names its engine here. An operator waiting in a test scheduler's queue then
/// holds only the engine, so it does not keep the scheduler alive, and the scheduler is released —
/// and reports what its test forgot to check — when the test lets go of it.
package protocol SchedulerWithStandIn: Scheduler {
  /// What an operator keeps to schedule its later work on this scheduler.
  var standIn: any Scheduler { get }
}

extension Scheduler {
  /// What an operator keeps to schedule its later work: the scheduler, or the stand-in it names.
  var keptByOperators: any Scheduler {
    (self as? any SchedulerWithStandIn)?.standIn ?? self
  }
}
