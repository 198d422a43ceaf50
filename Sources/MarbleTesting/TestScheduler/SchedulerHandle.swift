@_spi(Internals) public import Signals

/// A ``TestScheduler``'s virtual time, without the scheduler: what an adapter to another library's
/// scheduler holds (`MarblesCombine`'s `scheduler.combine`), so that a test that forgets `flush()`
/// still releases its scheduler and is told.
///
/// ```swift
/// let handle = scheduler.handle
/// handle.schedule(at: handle.now + 3) { … }   // as scheduler.schedule(at:)
/// ```
///
/// Everything it schedules runs in the scheduler's `advance`, `run` and `flush`, in the same
/// `(time, order scheduled)` order as the scheduler's own actions; once the scheduler has been
/// released, nothing drives it.
public struct SchedulerHandle: Sendable {
  let core: SchedulerCore

  init(core: SchedulerCore) {
    self.core = core
  }

  /// The current virtual time, in ticks.
  public var now: Int { core.now }

  /// The length of one tick.
  public var tick: Duration { core.tick }

  /// `duration` in whole ticks, rounding up; zero or negative durations are 0 ticks.
  ///
  /// - Parameter duration: The duration to convert.
  /// - Returns: The number of ticks.
  public func ticks(_ duration: Duration) -> Int {
    core.ticks(duration)
  }

  /// The scheduler, while it exists.
  public var scheduler: TestScheduler? { core.scheduler }

  /// Schedules `action` at tick `time` (or at ``now`` if `time` is in the past).
  ///
  /// - Parameters:
  ///   - time: The tick to run at.
  ///   - action: The work.
  /// - Returns: A disposable that cancels the action.
  @discardableResult
  public func schedule(at time: Int, _ action: @escaping @Sendable () -> Void) -> any Disposable {
    core.schedule(at: time, action)
  }

  /// Schedules `action` at tick `time` (or at ``now`` if `time` is in the past), then every
  /// `interval` ticks after its due time, until the returned disposable is disposed.
  ///
  /// - Parameters:
  ///   - time: The tick of the first run.
  ///   - interval: The ticks between runs; less than 1 counts as 1.
  ///   - action: The work.
  /// - Returns: A disposable that stops the repetition.
  @discardableResult
  public func schedule(at time: Int, every interval: Int, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    core.schedule(at: time, interval: max(1, interval), action)
  }
}

extension TestScheduler {
  /// This scheduler's virtual time, without keeping the scheduler alive (see
  /// ``SchedulerHandle``).
  public var handle: SchedulerHandle {
    SchedulerHandle(core: core)
  }
}
