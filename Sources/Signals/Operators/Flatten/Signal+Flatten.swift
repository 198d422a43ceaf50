extension SignalProtocol where Value: SignalProtocol, Value.Failure == Failure {
  /// Sends the values of the inner signals this signal sends, combined by `strategy`.
  ///
  ///     outer:            -x---y------|
  ///     x:                 -a---b|
  ///     y:                     --c-d|
  ///     flatten(.merge):  --a---bc-d--|
  ///     flatten(.concat): --a---b--c-d|
  ///     flatten(.latest): --a----c-d--|
  ///
  /// Each inner signal is subscribed when the strategy calls for it — at arrival for `.merge` and
  /// `.latest`, after the previous one completes for `.concat` — so a cold inner signal runs once
  /// per time it is sent. The first error from the outer signal or a subscribed inner signal fails
  /// the result and disposes everything. The result completes once the outer signal has completed
  /// and so have the inner signals still to be sent from (with `.latest`, only the newest one; a
  /// replaced inner signal's completion does not count). These rules are RAC 2.5's and agree with
  /// RxSwift's and RxJS's.
  ///
  /// - Parameter strategy: How the inner signals are combined.
  /// - Returns: The flattened signal.
  public func flatten(_ strategy: FlattenStrategy) -> Signal<Value.Value, Failure> {
    switch strategy {
    case .merge: flattenMap { $0.asSignal() }
    case .concat: concatFlattened()
    case .latest: latestFlattened()
    }
  }
}

extension SignalProtocol {
  /// Maps each value to a signal and combines the inner signals by `strategy`.
  ///
  ///     source:                         -a---b------|
  ///     transform(a):                    -1---2|
  ///     transform(b):                        --3-4|
  ///     flattenMap(.merge, transform):  --1---23-4--|
  ///     flattenMap(.concat, transform): --1---2--3-4|
  ///     flattenMap(.latest, transform): --1----3-4--|
  ///
  /// `transform` runs when a value arrives, also for `.concat`, whose inner signals wait their turn
  /// to be subscribed. The same as `map(transform).flatten(strategy)`; see
  /// ``SignalProtocol/flatten(_:)`` for the completion and error rules. `flattenMap(.merge, t)` is
  /// `flattenMap(t)`.
  ///
  /// - Parameters:
  ///   - strategy: How the inner signals are combined.
  ///   - transform: Makes a signal from each value.
  /// - Returns: The flattened signal.
  public func flattenMap<NewValue: Sendable>(
    _ strategy: FlattenStrategy,
    _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
  ) -> Signal<NewValue, Failure> {
    map(transform).flatten(strategy)
  }
}
