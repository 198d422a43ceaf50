/// Something that receives a signal's events.
///
/// Subjects are subscribers too, so a cold signal can feed one: `coldSignal.subscribe(subject)`.
/// Implementations need not be thread-safe themselves: a signal delivers to each subscriber one event
/// at a time, never two at once, and nothing after a terminal event or after the subscription is
/// disposed.
public protocol SubscriberProtocol<Value, Failure>: Sendable {
  /// The type of the values received.
  associatedtype Value: Sendable
  /// The type of the failure received.
  associatedtype Failure: Error

  /// Receives a value.
  func sendNext(_ value: Value)
  /// Receives a failure; no event follows.
  func sendError(_ error: Failure)
  /// Receives completion; no event follows.
  func sendCompleted()

  /// Told the subscription's disposable before any event arrives (RAC's `didSubscribeWithDisposable:`).
  ///
  /// A subject keeps these so that, when it terminates, it disposes every upstream subscription
  /// feeding it. The default implementation does nothing.
  ///
  /// - Parameter subscription: Disposes the subscription this subscriber was just given.
  func didSubscribe(with subscription: any Disposable)
}

extension SubscriberProtocol {
  /// Does nothing: most subscribers need not keep their subscription.
  public func didSubscribe(with subscription: any Disposable) {}

  /// Sends one event through the matching `send…` method.
  ///
  /// - Parameter event: The event to send.
  public func send(_ event: Event<Value, Failure>) {
    switch event {
    case .next(let value): sendNext(value)
    case .error(let failure): sendError(failure)
    case .completed: sendCompleted()
    }
  }
}

/// A subscriber made of three optional closures; the form behind `subscribe(next:error:completed:)`.
struct ClosureSubscriber<Value: Sendable, Failure: Error>: SubscriberProtocol {
  let next: (@Sendable (Value) -> Void)?
  let error: (@Sendable (Failure) -> Void)?
  let completed: (@Sendable () -> Void)?

  func sendNext(_ value: Value) { next?(value) }
  func sendError(_ error: Failure) { self.error?(error) }
  func sendCompleted() { completed?() }
}
