extension SignalProtocol {
  /// Sends `value` at subscription, then this signal's events.
  ///
  ///     source:        --a-|
  ///     startWith(x):  x-a-|
  ///
  /// - Parameter value: The first value.
  /// - Returns: The signal with `value` in front.
  public func startWith(_ value: Value) -> Signal<Value, Failure> {
    Signal.just(value).concat(self)
  }
}
