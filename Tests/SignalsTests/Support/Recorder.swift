import Signals

/// A thread-safe subscriber that records every event it receives, in order.
///
/// It keeps the disposable it is told in `didSubscribe(with:)`, so a test can dispose the
/// subscription from inside a callback — even during a synchronous subscribe, before `subscribe`
/// returns. The optional hook runs after each event is recorded, outside the lock.
final class Recorder<Value: Sendable, Failure: Error>: SubscriberProtocol, Sendable {
  typealias Hook = @Sendable (_ event: Event<Value, Failure>, _ recorder: Recorder) -> Void

  private struct State {
    var events: [Event<Value, Failure>] = []
    var subscription: (any Disposable)?
  }

  private let state = TestLock(State())
  private let hook: Hook?

  /// - Parameter hook: Runs after each event is recorded.
  init(onEvent hook: Hook? = nil) {
    self.hook = hook
  }

  func sendNext(_ value: Value) { receive(.next(value)) }
  func sendError(_ error: Failure) { receive(.error(error)) }
  func sendCompleted() { receive(.completed) }

  func didSubscribe(with subscription: any Disposable) {
    state.withLock { $0.subscription = subscription }
  }

  private func receive(_ event: Event<Value, Failure>) {
    state.withLock { $0.events.append(event) }
    hook?(event, self)
  }

  /// Every event received so far.
  var events: [Event<Value, Failure>] { state.withLock { $0.events } }

  /// The values received so far.
  var values: [Value] { events.compactMap(\.value) }

  /// Whether a terminal event has been received.
  var isTerminated: Bool { events.contains { $0.isTerminal } }

  /// The disposable given in `didSubscribe(with:)`.
  var subscription: (any Disposable)? { state.withLock { $0.subscription } }

  /// Disposes the subscription given in `didSubscribe(with:)`.
  func disposeSubscription() {
    subscription?.dispose()
  }
}
