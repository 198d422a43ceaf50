extension SignalProtocol where Value: SignalProtocol, Value.Failure == Failure {
  /// Sends the values of the newest inner signal, disposing the one before when a new one arrives.
  ///
  ///     outer:            -x---y------|
  ///     x:                 -a---b|
  ///     y:                     --c-d|
  ///     switchToLatest(): --a----c-d--|    (x is disposed at 5, before it sends b)
  ///
  /// The same as `flatten(.latest)`: RAC 2.5's `switchToLatest`, RxSwift's `switchLatest()` and
  /// RxJS's `switchAll()`. Completes once the outer signal and the newest inner signal have
  /// completed; the first error from the outer signal or the current inner signal fails it.
  ///
  /// - Returns: The signal of the newest inner signal's values.
  public func switchToLatest() -> Signal<Value.Value, Failure> {
    flatten(.latest)
  }
}
