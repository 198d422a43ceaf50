extension Signal {
  /// Merges the events of several signals, subscribing to all of them at once, in order.
  ///
  ///     a:          -1---3-|
  ///     b:          --2-----4|
  ///     merge(a,b): -12--3--4|
  ///
  /// Completes when all have completed; the first error ends the result and disposes the rest.
  /// Each signal is subscribed once per subscription to the result (seed 004: merging three
  /// signals derived from one cold `fetchData` subscribes to it three more times).
  ///
  /// - Parameter signals: The signals to merge; an empty array completes at once.
  /// - Returns: The merged signal.
  public static func merge(_ signals: [Signal]) -> Signal {
    Signal<Signal, Failure>.from(signals).flattenMap { $0 }
  }

  /// A signal that sends each element of `values` at subscription, then completes.
  ///
  ///     from([a, b, c]): (abc|)
  ///
  /// - Parameter values: The values to send.
  /// - Returns: The signal.
  public static func from(_ values: [Value]) -> Signal {
    Signal { subscriber in
      for value in values { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
  }
}

extension SignalProtocol {
  /// Merges this signal's events with `other`'s.
  ///
  ///     source:       -1---3-|
  ///     other:        --2-----4|
  ///     merge(other): -12--3--4|
  ///
  /// - Parameter other: The signal to merge with.
  /// - Returns: The merged signal.
  public func merge(_ other: some SignalProtocol<Value, Failure>) -> Signal<Value, Failure> {
    Signal.merge([asSignal(), other.asSignal()])
  }
}
