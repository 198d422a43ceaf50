public import Dispatch

/// A scheduler that runs actions on a Dispatch queue, in real time.
///
/// Actions run asynchronously on ``queue``; delays and intervals use the system's monotonic clock.
/// This is the scheduler for production code; tests pass a `TestScheduler` instead.
public struct QueueScheduler: Scheduler {
  /// The queue the actions run on.
  public let queue: DispatchQueue

  /// Creates a scheduler on `queue`.
  ///
  /// - Parameter queue: The queue to run actions on; a new serial queue by default.
  public init(queue: DispatchQueue = DispatchQueue(label: "Signals.QueueScheduler")) {
    self.queue = queue
  }

  /// Runs `action` asynchronously on ``queue``.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    let cancelled = AnyDisposable()
    queue.async {
      if !cancelled.isDisposed { action() }
    }
    return cancelled
  }

  /// Runs `action` on ``queue`` once `delay` has passed.
  @discardableResult
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    let cancelled = AnyDisposable()
    queue.asyncAfter(deadline: .now() + Self.dispatchInterval(delay)) {
      if !cancelled.isDisposed { action() }
    }
    return cancelled
  }

  /// Runs `action` on ``queue`` after `delay`, then every `interval`, each run due one interval after the previous due time.
  @discardableResult
  public func schedule(
    after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    precondition(
      interval > .zero, "A repeating action needs a positive interval (got \(interval)).")
    let cancelled = AnyDisposable()
    let queue = queue
    let step = Self.dispatchInterval(interval)
    // Each run schedules the next from its own due time, not from the clock, so the timer keeps its
    // phase however late a run starts.
    @Sendable func run(at deadline: DispatchTime) {
      queue.asyncAfter(deadline: deadline) {
        guard !cancelled.isDisposed else { return }
        action()
        run(at: deadline + step)
      }
    }
    run(at: .now() + Self.dispatchInterval(delay))
    return cancelled
  }

  /// A `Duration` as whole nanoseconds for Dispatch; negative becomes zero.
  ///
  /// SPI: the task driver waits for the main queue this long.
  @_spi(Internals) public static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval
  {
    let (seconds, attoseconds) = duration.components
    guard seconds >= 0, attoseconds >= 0 else { return .nanoseconds(0) }
    let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !nanoseconds.overflow, nanoseconds.partialValue <= Int64(Int.max) - 1_000_000_000 else {
      return .never
    }
    return .nanoseconds(Int(nanoseconds.partialValue + attoseconds / 1_000_000_000))
  }
}
