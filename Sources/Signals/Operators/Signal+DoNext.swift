extension SignalProtocol {
  /// Runs `sideEffect` with each value before passing the value on (RAC 2.5's `doNext:`).
  ///
  ///     source:            -a-b-|
  ///     doNext(log):       -a-b-|   (log(a) runs just before a is sent, then log(b))
  ///
  /// The side effect runs once per value per subscription, on the thread that sends the value.
  ///
  /// - Parameter sideEffect: Runs with each value, first.
  /// - Returns: The same events.
  public func doNext(_ sideEffect: @escaping @Sendable (Value) -> Void) -> Signal<Value, Failure> {
    forwardingValues { downstream in
      { value in
        sideEffect(value)
        downstream.sendNext(value)
      }
    }
  }
}
