import Signals

/// A cold signal under observation: it counts its subscriptions, keeps each subscriber so a test
/// can send to it later, and returns an `AnyDisposable` per subscription so a test can see when the
/// subscription is torn down.
///
/// Keeps its subscribers for good, so memory tests do not use it.
final class Probe<Value: Sendable, Failure: Error>: Sendable {
  private struct Run {
    let subscriber: any SubscriberProtocol<Value, Failure>
    let disposable: AnyDisposable
  }

  private let runs = TestLock<[Run]>([])
  private let onSubscribe: @Sendable (any SubscriberProtocol<Value, Failure>) -> Void

  /// - Parameter onSubscribe: Runs inside each subscription, after it is counted (to send at once).
  init(onSubscribe: @escaping @Sendable (any SubscriberProtocol<Value, Failure>) -> Void = { _ in })
  {
    self.onSubscribe = onSubscribe
  }

  /// The cold signal; every subscription runs the closure once.
  var signal: Signal<Value, Failure> {
    Signal { subscriber in
      let disposable = AnyDisposable()
      self.runs.withLock { $0.append(Run(subscriber: subscriber, disposable: disposable)) }
      self.onSubscribe(subscriber)
      return disposable
    }
  }

  /// How many times the signal has been subscribed.
  var subscriptionCount: Int { runs.withLock { $0.count } }

  /// The subscriber of the `index`th subscription (the latest by default).
  func subscriber(_ index: Int? = nil) -> any SubscriberProtocol<Value, Failure> {
    runs.withLock { $0[index ?? $0.count - 1].subscriber }
  }

  /// Whether the `index`th subscription (the latest by default) has been torn down.
  func isDisposed(_ index: Int? = nil) -> Bool {
    runs.withLock { $0[index ?? $0.count - 1].disposable }.isDisposed
  }

  /// Sends a value to the latest subscription.
  func sendNext(_ value: Value) { subscriber().sendNext(value) }
  /// Fails the latest subscription.
  func sendError(_ error: Failure) { subscriber().sendError(error) }
  /// Completes the latest subscription.
  func sendCompleted() { subscriber().sendCompleted() }
}
