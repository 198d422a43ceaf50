extension SignalProtocol {
  /// Transforms each value.
  ///
  ///     source:          -a-b-|
  ///     map(uppercased): -A-B-|
  ///
  /// - Parameter transform: Applied to each value.
  /// - Returns: The transformed signal.
  public func map<NewValue: Sendable>(
    _ transform: @escaping @Sendable (Value) -> NewValue
  ) -> Signal<NewValue, Failure> {
    forwardingValues { downstream in { downstream.sendNext(transform($0)) } }
  }
}
