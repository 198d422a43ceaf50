#if canImport(Combine) || canImport(OpenCombineShim)
  #if canImport(Combine)
    public import Combine
  #else
    public import OpenCombineShim
  #endif
  @_spi(Internals) public import Signals

  extension Signal {
    /// A Combine publisher as a cold signal: each subscription subscribes to the publisher with
    /// unlimited demand, and disposing it cancels the Combine subscription.
    ///
    /// ```swift
    /// let request = Signal(Deferred { Future { promise in … } })
    /// ```
    ///
    /// A subscription that ended — the publisher completed or failed — is never cancelled
    /// afterwards, so a recorder disposed late does not disconnect a `share()` and make it
    /// subscribe again.
    ///
    /// - Parameter publisher: The publisher to subscribe to, once per subscription.
    public init<P: Publisher>(_ publisher: P) where P.Output == Value, P.Failure == Failure {
      let publisher = PublisherBox<Value, Failure> { publisher.subscribe($0) }
      self.init { subscriber in
        let bridge = SignalBridge(subscriber)
        publisher.subscribe(bridge)
        return AnyDisposable { bridge.cancel() }
      }
    }
  }

  /// A publisher, which is not `Sendable`, as the one thing a signal does with it: subscribe.
  ///
  /// NB: `@unchecked Sendable`: a Combine publisher is a description of work; subscribing to it
  /// from the thread that subscribes to the signal is what Combine itself does.
  private final class PublisherBox<Value: Sendable, Failure: Error>: @unchecked Sendable {
    let subscribe: (SignalBridge<Value, Failure>) -> Void
    init(_ subscribe: @escaping (SignalBridge<Value, Failure>) -> Void) {
      self.subscribe = subscribe
    }
  }

  /// The Combine subscriber that forwards a publisher's events to a signal's subscriber.
  ///
  /// NB: `@unchecked Sendable`: its state is behind `state`'s lock; the signal's subscriber
  /// serializes what it is sent.
  private final class SignalBridge<Input: Sendable, Failure: Error>: Subscriber,
    @unchecked Sendable
  {
    private struct State {
      var subscription: Unchecked<any CombineSubscription>?
      var isCancelled = false
      var isEnded = false
    }

    private let subscriber: any SubscriberProtocol<Input, Failure>
    private let state = Locked(State())

    init(_ subscriber: any SubscriberProtocol<Input, Failure>) {
      self.subscriber = subscriber
    }

    func receive(subscription: any CombineSubscription) {
      let isCancelled = state.withLock { state -> Bool in
        if !state.isCancelled { state.subscription = Unchecked(subscription) }
        return state.isCancelled
      }
      if isCancelled {
        subscription.cancel()
      } else {
        subscription.request(.unlimited)
      }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
      subscriber.sendNext(input)
      return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
      let subscription = state.withLock { state -> Unchecked<any CombineSubscription>? in
        state.isEnded = true
        defer { state.subscription = nil }
        return state.subscription
      }
      // NB: released outside the lock; an ended subscription is never cancelled.
      _ = subscription
      switch completion {
      case .finished: subscriber.sendCompleted()
      case .failure(let failure): subscriber.sendError(failure)
      }
    }

    /// Cancels the Combine subscription, unless it has ended.
    func cancel() {
      let subscription = state.withLock { state -> Unchecked<any CombineSubscription>? in
        guard !state.isEnded else { return nil }
        state.isCancelled = true
        defer { state.subscription = nil }
        return state.subscription
      }
      subscription?.value.cancel()
    }
  }
#endif
