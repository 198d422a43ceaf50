extension SignalProtocol {
  /// Shares this signal through `subject`: subscribers join the subject, and the source is subscribed
  /// once, when the returned connection's ``MulticastConnection/connect()`` is called.
  ///
  /// - Parameter subject: The subject that relays the source: a ``Subject`` to share only live events,
  ///   a ``ReplaySubject`` or ``BehaviorSubject`` to give newcomers history.
  /// - Returns: The connection holding the shared signal.
  public func multicast(_ subject: Subject<Value, Failure>) -> MulticastConnection<Value, Failure> {
    MulticastConnection(source: asSignal(), subject: subject)
  }

  /// Shares this signal through a plain ``Subject``; nothing happens until `connect()`.
  ///
  ///     source:              -a-b-c-|
  ///     connect() at 2:      --^
  ///     subscriber at 0:     ----b-c-|
  ///
  /// - Returns: The connection.
  public func publish() -> MulticastConnection<Value, Failure> {
    multicast(Subject())
  }

  /// Subscribes to this signal now, once, and replays everything it sent to every subscriber.
  ///
  ///     source:              -a-b-----c-|
  ///     subscriber at 5:     -----(ab)c-|   (a and b replayed at 5, then c live)
  ///
  /// The source is subscribed at call time, exactly once, even if nobody ever subscribes.
  ///
  /// - Returns: The hot, replaying signal.
  public func replay() -> Signal<Value, Failure> {
    let connection = multicast(ReplaySubject())
    connection.connect()
    return connection.signal
  }

  /// Like ``replay()``, but replays only the latest value (plus the terminal event).
  ///
  /// - Returns: The hot signal replaying its latest value.
  public func replayLast() -> Signal<Value, Failure> {
    let connection = multicast(ReplaySubject(capacity: 1))
    connection.connect()
    return connection.signal
  }

  /// Like ``replay()``, but subscribes to the source only when the first subscriber arrives, and then
  /// never again (it never disconnects).
  ///
  /// The fix for seed 004's six network requests: bindings that each subscribe to
  /// `fetchData.replayLazily()` share one request.
  ///
  /// - Returns: The lazily connecting, replaying signal.
  public func replayLazily() -> Signal<Value, Failure> {
    let connection = multicast(ReplaySubject())
    return Signal.deferred {
      connection.connect()
      return connection.signal
    }
  }
}
