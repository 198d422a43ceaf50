/// Shares one subscription to a source among many subscribers through a subject.
///
/// Made by ``SignalProtocol/multicast(_:)`` (and `publish()`): subscribers subscribe to ``signal``,
/// which is the subject; nothing reaches them until ``connect()`` subscribes the subject to the source,
/// once.
///
///     source (cold):        -a-b-c-|
///     connect() at 2:       --^
///     subscriber at 0:      ----b-c-|    (a was sent by a run of the source that never happened)
public final class MulticastConnection<Value: Sendable, Failure: Error>: Sendable {
  /// The shared signal: subscribing to it subscribes to the subject, not to the source.
  public let signal: Signal<Value, Failure>

  private let source: Signal<Value, Failure>
  private let subject: Subject<Value, Failure>
  private let hasConnected = Locked(false)
  private let connection = SerialDisposable()
  private let subscriberCount = Locked(0)

  init(source: Signal<Value, Failure>, subject: Subject<Value, Failure>) {
    self.source = source
    self.subject = subject
    self.signal = subject.asSignal()
  }

  /// Subscribes the subject to the source, the first time only.
  ///
  /// Idempotent and thread-safe: every call returns the same disposable, and only the first call
  /// subscribes. Disposing that disposable ends the shared subscription for good — a later
  /// `connect()` does not resubscribe (RAC 2.5).
  ///
  /// - Returns: The disposable of the shared source subscription.
  @discardableResult
  public func connect() -> any Disposable {
    let shouldConnect = hasConnected.withLock { hasConnected -> Bool in
      defer { hasConnected = true }
      return !hasConnected
    }
    if shouldConnect { connection.inner = source.subscribe(subject) }
    return connection
  }

  /// A signal that connects when its first subscriber arrives.
  ///
  /// Each subscriber joins the subject first, then calls ``connect()``. When the number of
  /// subscribers falls to zero, the source subscription is disposed, and — as in RAC 2.5 — it is never
  /// reconnected: later subscribers get only what the subject itself replays (nothing for a plain
  /// subject; the stored values for a ``ReplaySubject``).
  ///
  /// - Returns: The auto-connecting signal.
  public func autoconnect() -> Signal<Value, Failure> {
    Signal { subscriber in
      self.subscriberCount.withLock { $0 += 1 }
      let subscription = self.signal.subscribe(subscriber)
      let connection = self.connect()
      return AnyDisposable {
        subscription.dispose()
        let remaining = self.subscriberCount.withLock { count -> Int in
          count -= 1
          return count
        }
        if remaining == 0 { connection.dispose() }
      }
    }
  }
}
