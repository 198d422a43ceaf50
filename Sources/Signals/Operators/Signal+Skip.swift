extension SignalProtocol {
  /// Drops the first `count` values, then passes on the rest.
  ///
  ///     source:   -a-b-c-d-|
  ///     skip(2):  -----c-d-|
  ///
  /// Errors and completion pass through unchanged, also while values are still being skipped. Each
  /// subscription counts on its own.
  ///
  /// - Parameter count: How many values to drop; `0` or less passes everything on (as RxJS's
  ///   `skip` does with a negative count).
  /// - Returns: The signal without its first `count` values.
  public func skip(_ count: Int) -> Signal<Value, Failure> {
    guard count > 0 else { return asSignal() }
    return forwardingValues { downstream in
      let seen = Locked(0)
      return { value in
        let isSkipped = seen.withLock { seen -> Bool in
          guard seen < count else { return false }
          seen += 1
          return true
        }
        if !isSkipped { downstream.sendNext(value) }
      }
    }
  }
}
