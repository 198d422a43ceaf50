extension SignalProtocol {
  /// Drops the first `count` values, then passes on the rest.
  ///
  ///     source:   -a-b-c-d-|
  ///     skip(2):  -----c-d-|
  ///
  /// Errors and completion pass through unchanged, also while values are still being skipped. Each
  /// subscription counts on its own.
  ///
  /// - Parameter count: How many values to drop; `0` passes everything on.
  /// - Returns: The signal without its first `count` values.
  /// - Precondition: `count >= 0`.
  public func skip(_ count: Int) -> Signal<Value, Failure> {
    precondition(count >= 0, "skip(_:) needs a count of zero or more (got \(count)).")
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
