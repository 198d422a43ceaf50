extension SignalProtocol {
  /// Passes on only the values that satisfy `isIncluded`.
  ///
  ///     source:           -1-2-3-4-|
  ///     filter(isEven):   ---2---4-|
  ///
  /// - Parameter isIncluded: Whether to pass a value on.
  /// - Returns: The filtered signal.
  public func filter(
    _ isIncluded: @escaping @Sendable (Value) -> Bool
  ) -> Signal<Value, Failure> {
    forwardingValues { downstream in { if isIncluded($0) { downstream.sendNext($0) } } }
  }
}
