extension SignalProtocol {
  /// Sends this signal's events, then — once it completes — subscribes to `other`.
  ///
  ///     source:        -a-b-|
  ///     other:              -c-|
  ///     concat(other): -a-b--c-|
  ///
  /// `other` is subscribed only after this signal completes; an error ends the result without
  /// subscribing to it.
  ///
  /// - Parameter other: The signal that follows.
  /// - Returns: The concatenated signal.
  public func concat(_ other: some SignalProtocol<Value, Failure>) -> Signal<Value, Failure> {
    let other = other.asSignal()
    return Signal { downstream in
      self.subscribe(
        downstream, forwardingValues: { downstream.sendNext($0) }, thenSubscribingTo: { other })
    }
  }
}
