extension SignalProtocol {
  /// Sends `values` at subscription, in order, then this signal's events.
  ///
  ///     source:          --a-|
  ///     startWith(x):    x-a-|
  ///     startWith(x, y): [xy]-a-|  (x and y both at frame 0)
  ///
  /// - Parameter values: The first values; none gives back this signal's events unchanged.
  /// - Returns: The signal with `values` in front.
  public func startWith(_ values: Value...) -> Signal<Value, Failure> {
    Signal<Value, Failure> { subscriber in
      for value in values { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }.concat(self)
  }
}
