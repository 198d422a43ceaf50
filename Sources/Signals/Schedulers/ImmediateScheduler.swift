/// A scheduler that runs every action at once, on the calling thread, before `schedule` returns.
///
/// Delays are ignored: `schedule(after:)` runs the action immediately, which makes time operators
/// collapse to their ordering (as combine-schedulers' `ImmediateScheduler` does). A repeating action
/// cannot be run "immediately" a finite number of times, so `schedule(after:interval:)` is a
/// programming error and traps with a message; use a `TestScheduler` for timers.
public struct ImmediateScheduler: Scheduler {
  /// Creates an immediate scheduler.
  public init() {}

  /// Runs `action` now, before returning.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    action()
    return AnyDisposable()
  }

  /// Runs `action` now, ignoring the delay.
  @discardableResult
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    schedule(action)
  }

  /// Traps: a repeating action cannot run immediately (use a `TestScheduler`).
  @discardableResult
  public func schedule(
    after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    preconditionFailure(
      "ImmediateScheduler cannot run a repeating action: it would never return. "
        + "Use a TestScheduler (virtual time) or a QueueScheduler (real time) for timers.")
  }
}
