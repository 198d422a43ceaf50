extension SignalProtocol {
  /// Sends a running accumulation: each value is combined with the previous result.
  ///
  ///     source:     -1-2-3-|
  ///     scan(0, +): -1-3-6-|
  ///
  /// The first value is combined with `initial`; `initial` itself is not sent (as in RAC 2.5's
  /// `scanWithStart:reduce:`, RxSwift's `scan` and RxJS's `scan` with a seed). Each subscription
  /// starts again from `initial`. Errors and completion pass through unchanged.
  ///
  /// - Parameters:
  ///   - initial: The accumulation before the first value.
  ///   - accumulate: Combines the accumulation so far with a value into the next accumulation.
  /// - Returns: The signal of accumulations.
  public func scan<Result: Sendable>(
    _ initial: Result, _ accumulate: @escaping @Sendable (Result, Value) -> Result
  ) -> Signal<Result, Failure> {
    forwardingValues { downstream in
      let accumulation = Locked(initial)
      return { value in
        // Values arrive one at a time, so reading, accumulating outside the lock (never call a
        // user closure while holding it) and storing cannot interleave with another value.
        let previous = accumulation.withLock { $0 }
        let next = accumulate(previous, value)
        accumulation.withLock { $0 = next }
        downstream.sendNext(next)
      }
    }
  }
}
