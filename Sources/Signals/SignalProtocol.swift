/// A source of events that subscribers can subscribe to: a cold ``Signal`` or a hot subject.
///
/// Every operator (`map`, `publish`, `replayLazily`, …) is defined on this protocol, so it applies to
/// signals and subjects alike and returns a ``Signal``.
public protocol SignalProtocol<Value, Failure>: Sendable {
  /// The type of the values sent.
  associatedtype Value: Sendable
  /// The type of the failure sent.
  associatedtype Failure: Error

  /// Subscribes `subscriber` and returns the disposable that ends the subscription.
  ///
  /// Subscription is synchronous: whatever the signal sends at once — a cold signal's first values,
  /// a replay, a behaviour subject's current value — reaches the subscriber before this returns.
  ///
  /// - Parameter subscriber: The receiver of the events.
  /// - Returns: A disposable that silences and tears down the subscription.
  @discardableResult
  func subscribe(_ subscriber: some SubscriberProtocol<Value, Failure>) -> any Disposable
}

extension SignalProtocol {
  /// Subscribes with closures for values, failure and completion, each optional.
  ///
  /// ```swift
  /// let disposable = signal.subscribe(next: { print($0) }, completed: { print("done") })
  /// ```
  ///
  /// - Parameters:
  ///   - next: Called with each value.
  ///   - error: Called with the failure.
  ///   - completed: Called on completion.
  /// - Returns: A disposable that ends the subscription. The closures are released when the signal
  ///   terminates or the subscription is disposed.
  @discardableResult
  public func subscribe(
    next: (@Sendable (Value) -> Void)? = nil,
    error: (@Sendable (Failure) -> Void)? = nil,
    completed: (@Sendable () -> Void)? = nil
  ) -> any Disposable {
    subscribe(ClosureSubscriber(next: next, error: error, completed: completed))
  }

  /// This source as a ``Signal``; subscribing to the result subscribes to this source directly.
  ///
  /// - Returns: A signal that forwards each subscription to this source.
  public func asSignal() -> Signal<Value, Failure> {
    Signal(forwardingTo: self)
  }
}
