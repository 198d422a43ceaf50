/// A cold signal: a subscribe closure that runs once for every subscription.
///
/// ```swift
/// let fetch = Signal<Data, NetworkError> { subscriber in
///   let task = client.get("/data") { result in
///     switch result {
///     case .success(let data): subscriber.sendNext(data); subscriber.sendCompleted()
///     case .failure(let error): subscriber.sendError(error)
///     }
///   }
///   return AnyDisposable { task.cancel() }
/// }
/// ```
///
/// Two subscribers mean two runs of the closure — two requests. To share one run, turn the signal hot
/// with ``SignalProtocol/publish()``, ``SignalProtocol/replay()`` or ``SignalProtocol/replayLazily()``.
///
/// The subscriber the closure receives is safe to use from any thread: its events reach the
/// downstream subscriber one at a time, in the order sent, nothing after a terminal event and nothing
/// after disposal. An event sent from inside the downstream's own callback (re-entrantly) is
/// delivered after that callback returns. When the signal terminates or the subscription is disposed,
/// the disposable the closure returned is disposed and the downstream subscriber is released.
public struct Signal<Value: Sendable, Failure: Error>: SignalProtocol {
  private let subscribeAction: @Sendable (any SubscriberProtocol<Value, Failure>) -> any Disposable

  /// Creates a cold signal from a subscribe closure.
  ///
  /// - Parameter body: Runs on each subscription, on the subscribing thread, before `subscribe`
  ///   returns. It sends events to the subscriber it is given (now or later) and returns a disposable
  ///   that cancels its work, or `nil` if there is nothing to cancel.
  public init(
    _ body:
      @escaping @Sendable (_ subscriber: any SubscriberProtocol<Value, Failure>) -> (
        any Disposable
      )?
  ) {
    subscribeAction = { subscriber in
      let sink = Sink(subscriber)
      subscriber.didSubscribe(with: sink)
      if let disposable = body(sink) { sink.resources.add(disposable) }
      return sink
    }
  }

  /// Wraps a source that already gives each subscriber a safe, serialized subscription (a subject).
  init(forwardingTo source: some SignalProtocol<Value, Failure>) {
    if let signal = source as? Signal {
      self = signal
    } else {
      subscribeAction = { source.subscribe($0) }
    }
  }

  /// Runs the subscribe closure for `subscriber` (once per subscription) and returns its disposable.
  @discardableResult
  public func subscribe(_ subscriber: some SubscriberProtocol<Value, Failure>) -> any Disposable {
    subscribeAction(subscriber)
  }
}

extension Signal {
  /// A signal that sends one value, then completes, at subscription.
  ///
  ///     just(a): (a|)
  ///
  /// - Parameter value: The value to send.
  /// - Returns: The signal.
  public static func just(_ value: Value) -> Signal {
    Signal { subscriber in
      subscriber.sendNext(value)
      subscriber.sendCompleted()
      return nil
    }
  }

  /// A signal that completes at subscription without sending a value.
  ///
  ///     empty: |
  public static var empty: Signal {
    Signal { subscriber in
      subscriber.sendCompleted()
      return nil
    }
  }

  /// A signal that never sends anything.
  ///
  ///     never: ------
  public static var never: Signal {
    Signal { _ in nil }
  }

  /// A signal that fails at subscription.
  ///
  ///     error(e): #
  ///
  /// - Parameter error: The failure to send.
  /// - Returns: The signal.
  public static func error(_ error: Failure) -> Signal {
    Signal { subscriber in
      subscriber.sendError(error)
      return nil
    }
  }

  /// A signal that builds a new signal for each subscription and subscribes to it.
  ///
  /// `make` runs on every subscription, on the subscribing thread; nothing runs before. So each
  /// subscriber gets work of its own, started when it subscribes — RAC's `+defer:`:
  ///
  ///     let request = Signal.deferred { Signal.just(api.fetch()) }   // one fetch per subscriber
  ///
  ///     make:      (a new signal per subscription)
  ///     sub1:      ^--a|      (make runs at sub1's ^)
  ///     sub2:         ^--a|   (and again at sub2's)
  ///
  /// Under a `TestScheduler`, the work `make` starts — an `AsyncSequence` as `Signal(sequence)`,
  /// whose iterating task begins at the subscription — is driven like any other, so it is not
  /// needed to make tests deterministic: a stream built in the test body, after the scheduler, is
  /// driven too.
  ///
  /// - Parameter make: Makes the signal to subscribe to.
  /// - Returns: The deferred signal.
  public static func deferred(_ make: @escaping @Sendable () -> Signal) -> Signal {
    Signal { subscriber in
      make().subscribe(subscriber)
    }
  }
}
