#if canImport(Combine) || canImport(OpenCombineShim)
  #if canImport(Combine)
    public import Combine
  #else
    public import OpenCombineShim
  #endif
  import MarbleTesting
  @_spi(Internals) public import Signals

  extension SignalProtocol {
    /// This signal as a Combine publisher: each Combine subscription is one subscription of the
    /// signal, made when the subscriber subscribes (a test signal logs it at that tick);
    /// cancelling disposes it.
    ///
    /// ```swift
    /// let clicks = try scheduler.hot("-a-b-|")
    /// scheduler.expect(clicks.publisher.map { $0.uppercased() }).toBe("-A-B-|")
    /// ```
    ///
    /// Demand is honoured: never more values than requested. A hot source — a hot test signal, a
    /// subject — drops the values its subscriber did not request, as `PassthroughSubject` does; a
    /// cold one holds them and delivers them on the next request, as `Publishers.Sequence` does,
    /// and its end waits behind the values it holds.
    public var publisher: SignalPublisher<Value, Failure> {
      SignalPublisher(self)
    }
  }

  /// A signal as a Combine `Publisher` (see `SignalProtocol.publisher`).
  public struct SignalPublisher<Output: Sendable, Failure: Error>: Publisher, Sendable {
    private let signal: Signal<Output, Failure>
    /// Whether values nobody requested are dropped (a hot source) rather than held.
    let dropsUnrequestedValues: Bool

    init<Source: SignalProtocol>(_ source: Source)
    where Source.Value == Output, Source.Failure == Failure {
      signal = source.asSignal()
      dropsUnrequestedValues =
        (source as? TestSignal<Output, Failure>)?.kind == .hot
        || source is Subject<Output, Failure>
    }

    /// Gives `subscriber` its subscription, then subscribes to the signal (unless it cancelled at
    /// once): one subscription of the signal per Combine subscriber.
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = SignalSubscription(
        subscriber, dropsUnrequestedValues: dropsUnrequestedValues)
      subscriber.receive(subscription: subscription)
      subscription.start(signal)
    }
  }

  /// One Combine subscription to a signal: the signal's events, metered by the subscriber's
  /// demand.
  ///
  /// NB: `@unchecked Sendable`: everything mutable is behind `state`'s lock; the subscriber, which
  /// is not `Sendable`, is called by one delivering thread at a time (the `isDelivering` role),
  /// outside the lock.
  final class SignalSubscription<Downstream: Subscriber>: CombineSubscription,
    SubscriberProtocol, @unchecked Sendable
  where Downstream.Input: Sendable {
    private enum Step {
      case value(Downstream.Input, Downstream)
      case end(Subscribers.Completion<Downstream.Failure>, Downstream)
    }

    private struct State {
      /// The subscriber, until the subscription is over (ended or cancelled).
      var downstream: Unchecked<Downstream>?
      var demand = Subscribers.Demand.none
      /// Values received and not yet delivered.
      var held = FIFOQueue<Downstream.Input>()
      /// How the signal ended, once it has; delivered after the held values.
      var end: Subscribers.Completion<Downstream.Failure>?
      var isDelivering = false
      var isOver = false
      var signalSubscription: (any Disposable)?
    }

    private let state: Locked<State>
    private let dropsUnrequestedValues: Bool

    init(_ downstream: Downstream, dropsUnrequestedValues: Bool) {
      state = Locked(State(downstream: Unchecked(downstream)))
      self.dropsUnrequestedValues = dropsUnrequestedValues
    }

    /// Subscribes to the signal, unless the subscriber cancelled already.
    func start(_ signal: Signal<Downstream.Input, Downstream.Failure>) {
      guard state.withLock({ !$0.isOver }) else { return }
      // NB: the signal's subscription holds this one until it ends or is disposed, which the
      // subscription's end and `cancel()` both do.
      let subscription = signal.subscribe(self)
      let isOver = state.withLock { state -> Bool in
        if !state.isOver, state.end == nil { state.signalSubscription = subscription }
        return state.isOver
      }
      if isOver { subscription.dispose() }
    }

    func request(_ demand: Subscribers.Demand) {
      state.withLock { $0.demand += demand }
      deliver()
    }

    func cancel() {
      let (subscription, downstream) = state.withLock {
        state -> ((any Disposable)?, Unchecked<Downstream>?) in
        state.isOver = true
        state.held.removeAll()
        defer { (state.signalSubscription, state.downstream) = (nil, nil) }
        return (state.signalSubscription, state.downstream)
      }
      subscription?.dispose()
      // NB: released outside the lock.
      _ = downstream
    }

    func sendNext(_ value: Downstream.Input) {
      let isKept = state.withLock { state -> Bool in
        guard !state.isOver, state.end == nil else { return false }
        // A hot source drops a value that no outstanding demand is left for.
        if dropsUnrequestedValues, state.demand <= Subscribers.Demand.max(state.held.count) {
          return false
        }
        state.held.append(value)
        return true
      }
      if isKept { deliver() }
    }

    func sendError(_ error: Downstream.Failure) { ended(.failure(error)) }
    func sendCompleted() { ended(.finished) }

    private func ended(_ end: Subscribers.Completion<Downstream.Failure>) {
      state.withLock { state in
        guard !state.isOver, state.end == nil else { return }
        state.end = end
        // The signal's subscription has ended: it is never disposed afterwards.
        state.signalSubscription = nil
      }
      deliver()
    }

    /// Delivers what the demand allows, then the end once nothing is held; one thread at a time,
    /// and never while holding the lock.
    private func deliver() {
      while true {
        let step = state.withLock { state -> Unchecked<Step>? in
          guard !state.isDelivering, !state.isOver, let downstream = state.downstream?.value else {
            return nil
          }
          if state.demand > .none, let value = state.held.popFirst() {
            state.demand -= 1
            state.isDelivering = true
            return Unchecked(.value(value, downstream))
          }
          if state.held.isEmpty, let end = state.end {
            // Released once it has ended, as Combine's own subscriptions do.
            state.isOver = true
            state.downstream = nil
            return Unchecked(.end(end, downstream))
          }
          return nil
        }
        switch step?.value {
        case nil:
          return
        case .value(let value, let downstream):
          let more = downstream.receive(value)
          state.withLock { state in
            state.demand += more
            state.isDelivering = false
          }
        case .end(let end, let downstream):
          downstream.receive(completion: end)
          return
        }
      }
    }
  }
#endif
