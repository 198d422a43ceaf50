extension SignalProtocol {
  /// Passes on the first `count` values, then completes and disposes the source subscription.
  ///
  ///     source:   -a-b-c-d-|
  ///     take(2):  -a-(b|)
  ///
  /// - Parameter count: How many values to take; `0` or less completes at subscription (as RxJS's
  ///   `take` does with a negative count).
  /// - Returns: The truncated signal.
  public func take(_ count: Int) -> Signal<Value, Failure> {
    guard count > 0 else { return .empty }
    return forwardingValues { downstream in
      let taken = Locked(0)
      return { value in
        let position = taken.withLock { taken -> Int in
          taken += 1
          return taken
        }
        guard position <= count else { return }
        downstream.sendNext(value)
        if position == count { downstream.sendCompleted() }
      }
    }
  }
}
