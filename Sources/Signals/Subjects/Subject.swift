/// A hot signal you send to by hand: each event goes to whoever is subscribed at that moment.
///
/// A subject is both a signal and a subscriber, so a cold signal can feed it
/// (`coldSignal.subscribe(subject)`) and it can be the subject of ``SignalProtocol/multicast(_:)``.
///
///     send:         --1---2---3-|
///     subscriber A: ^-1---2---3-|
///     subscriber B: ------^-3---|     (subscribed after 2: it missed 1 and 2)
///
/// Unlike RAC 2.5's `RACSubject`, a subject remembers that it terminated: a subscriber arriving after
/// the terminal event receives it at once (instead of waiting forever), and anything sent after
/// termination is ignored. When the subject terminates it disposes every upstream subscription feeding
/// it; an upstream subscribed to a terminated subject is disposed at once.
///
/// Sends are thread-safe and serialized: every subscriber receives the events in the same order. An
/// event sent while another is being delivered — from another thread, or from inside a subscriber's
/// callback — is queued and delivered to every subscriber after the current event has reached them
/// all; in that case `sendNext` may return before delivery. A subscriber added from inside a callback
/// receives the events sent after it subscribed, not the one being delivered.
///
/// - Note: `@unchecked Sendable` because the class is open to ``ReplaySubject`` and
///   ``BehaviorSubject`` inside the module; its only stored state is the thread-safe core.
public class Subject<Value: Sendable, Failure: Error>: SignalProtocol, SubscriberProtocol,
  @unchecked Sendable
{
  // NB: every mutable field lives in `core`, behind `Locked`.
  let core: SubjectCore<Value, Failure>

  /// Creates a subject with no subscribers.
  public convenience init() {
    self.init(core: SubjectCore(capacity: 0))
  }

  init(core: SubjectCore<Value, Failure>) {
    self.core = core
  }

  /// Adds `subscriber`; it receives what the subject remembers (nothing, its history, or its current value), then live events. See ``SignalProtocol/subscribe(_:)``.
  @discardableResult
  public func subscribe(_ subscriber: some SubscriberProtocol<Value, Failure>) -> any Disposable {
    core.subscribe(subscriber)
  }

  /// Sends a value to every current subscriber.
  public func sendNext(_ value: Value) { core.sendNext(value) }
  /// Fails: every current and future subscriber receives the error; later sends are ignored.
  public func sendError(_ error: Failure) { core.send(.error(error)) }
  /// Completes: every current and future subscriber is completed; later sends are ignored.
  public func sendCompleted() { core.send(.completed) }

  /// Keeps an upstream subscription so that the subject disposes it when it terminates.
  public func didSubscribe(with subscription: any Disposable) {
    core.didSubscribe(with: subscription)
  }
}
