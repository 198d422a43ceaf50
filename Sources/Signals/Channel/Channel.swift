/// A two-way binding point: two terminals, each a signal and a subscriber, cross-wired so that what
/// one terminal is sent, the other terminal's subscribers receive (RAC 2.5's `RACChannel`, seed 001).
///
///     leadingTerminal.sendNext(x)  →  followingTerminal's subscribers receive x
///     followingTerminal.sendNext(y) →  leadingTerminal's subscribers receive y
///
/// The following side is backed by a replay subject of capacity 1 (a new subscriber to
/// ``followingTerminal`` first gets the latest value sent on ``leadingTerminal``); the leading side by
/// one of capacity 0 (no replay). An error or completion sent on either terminal ends both.
///
/// The two subjects subscribe to each other until the channel terminates, so an unterminated
/// channel is kept alive by its own wiring, as in RAC; complete it to release it.
public final class Channel<Value: Sendable, Failure: Error>: Sendable {
  /// The terminal a model usually holds (RAC's `leadingTerminal`).
  public let leadingTerminal: ChannelTerminal<Value, Failure>
  /// The terminal a view usually binds (RAC's `followingTerminal`).
  public let followingTerminal: ChannelTerminal<Value, Failure>

  /// Creates a channel with two cross-wired terminals.
  public init() {
    let leadingValues = ReplaySubject<Value, Failure>(capacity: 0)
    let followingValues = ReplaySubject<Value, Failure>(capacity: 1)
    // Terminal events go everywhere; values only cross over.
    leadingValues.ignoreValues().subscribe(followingValues)
    followingValues.ignoreValues().subscribe(leadingValues)
    leadingTerminal = ChannelTerminal(values: leadingValues, otherTerminal: followingValues)
    followingTerminal = ChannelTerminal(values: followingValues, otherTerminal: leadingValues)
  }
}

/// One end of a ``Channel``: subscribing receives what is sent to the *other* terminal; sending
/// reaches the other terminal's subscribers.
public final class ChannelTerminal<Value: Sendable, Failure: Error>: SignalProtocol,
  SubscriberProtocol
{
  private let values: Subject<Value, Failure>
  private let otherTerminal: Subject<Value, Failure>

  init(values: Subject<Value, Failure>, otherTerminal: Subject<Value, Failure>) {
    self.values = values
    self.otherTerminal = otherTerminal
  }

  /// Subscribes to what is sent to the *other* terminal.
  @discardableResult
  public func subscribe(_ subscriber: some SubscriberProtocol<Value, Failure>) -> any Disposable {
    values.subscribe(subscriber)
  }

  /// Sends a value to the other terminal's subscribers.
  public func sendNext(_ value: Value) { otherTerminal.sendNext(value) }
  /// Fails both terminals.
  public func sendError(_ error: Failure) { otherTerminal.sendError(error) }
  /// Completes both terminals.
  public func sendCompleted() { otherTerminal.sendCompleted() }

  /// Keeps an upstream subscription so that it is disposed when the channel terminates.
  public func didSubscribe(with subscription: any Disposable) {
    otherTerminal.didSubscribe(with: subscription)
  }
}
