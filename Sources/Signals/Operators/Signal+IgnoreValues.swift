extension SignalProtocol {
  /// Drops every value and passes on only the terminal event.
  ///
  ///     source:         -a-b-|
  ///     ignoreValues(): -----|
  ///
  /// - Returns: A signal of the same type that sends no values.
  public func ignoreValues() -> Signal<Value, Failure> {
    forwardingValues { _ in { _ in } }
  }
}
