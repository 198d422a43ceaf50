extension SignalProtocol {
  /// Ignores this signal's values and, once it completes, subscribes to the signal `next` makes.
  ///
  ///     source:          -a-b-|
  ///     next():               -x-|
  ///     then(next):      ------x-|
  ///
  /// `next` runs only after completion (RAC 2.5's `then:`), so a side effect in it happens after this
  /// signal's work is done; an error ends the result without calling it.
  ///
  /// - Parameter next: Makes the signal to continue with.
  /// - Returns: The sequenced signal.
  public func then<NewValue: Sendable>(
    _ next: @escaping @Sendable () -> Signal<NewValue, Failure>
  ) -> Signal<NewValue, Failure> {
    Signal { downstream in
      self.subscribe(downstream, forwardingValues: nil, thenSubscribingTo: next)
    }
  }
}
