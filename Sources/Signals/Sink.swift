/// One subscription's delivery point: it serializes events to the downstream subscriber, enforces
/// the event grammar and releases everything once the subscription ends.
///
/// Serialization without holding a lock while calling out: a thread that finds nobody delivering
/// becomes the deliverer and drains; a thread (or a re-entrant call from the downstream's own
/// callback) that finds a delivery under way queues its event and returns. The deliverer delivers
/// queued events in order once the current callback returns.
///
/// A sink can start *held*: the subscribing thread owns delivery from the start, so a subject can
/// replay its history to the newcomer (``deliverHeld(_:)``) while live events sent meanwhile from
/// other threads queue up behind the replay, then ``release()`` delivers them.
final class Sink<Value: Sendable, Failure: Error>: SubscriberProtocol, Disposable {
  private struct State {
    /// The receiver; `nil` once the subscription has terminated or been disposed.
    var downstream: (any SubscriberProtocol<Value, Failure>)?
    /// Whether a thread is delivering (and owns the queue).
    var isDelivering: Bool
    /// Whether a terminal event has been accepted; later events are dropped.
    var isTerminated = false
    /// Events waiting for the deliverer, from `head` on.
    var pending: [Event<Value, Failure>] = []
    var head = 0

    /// The next queued event, or `nil` after giving up the delivery role.
    mutating func dequeue() -> Event<Value, Failure>? {
      guard downstream != nil, head < pending.count else {
        isDelivering = false
        pending.removeAll()
        head = 0
        return nil
      }
      defer { head += 1 }
      return pending[head]
    }
  }

  private let state: Locked<State>
  /// What the subscription owns: disposed when it terminates or is disposed.
  let resources = CompoundDisposable()

  init(_ downstream: any SubscriberProtocol<Value, Failure>, held: Bool = false) {
    state = Locked(State(downstream: downstream, isDelivering: held))
  }

  func sendNext(_ value: Value) { send(.next(value)) }
  func sendError(_ error: Failure) { send(.error(error)) }
  func sendCompleted() { send(.completed) }

  func send(_ event: Event<Value, Failure>) {
    // NB: the lock returns a `Bool` and hands the downstream out through a local: a generic result
    // type (an optional existential) would make unspecialized code look up its type metadata on
    // every event, which was half the cost of a delivery.
    var downstream: (any SubscriberProtocol<Value, Failure>)?
    let shouldDrain = state.withLock { state -> Bool in
      guard !state.isTerminated, state.downstream != nil else { return false }
      if event.isTerminal { state.isTerminated = true }
      if state.isDelivering {
        state.pending.append(event)
        return false
      }
      state.isDelivering = true
      downstream = state.downstream
      return true
    }
    if shouldDrain, let downstream { drain(to: downstream, startingWith: event) }
  }

  /// Delivers one event while the caller owns delivery (a held sink during replay).
  ///
  /// Replayed events come before anything queued meanwhile, so a live terminal event already
  /// queued (`isTerminated`) does not stop the replay; only disposal does.
  ///
  /// - Returns: `false` once the subscription is over (disposed, perhaps by the event just sent).
  @discardableResult
  func deliverHeld(_ event: Event<Value, Failure>) -> Bool {
    let downstream = state.withLock { state -> (any SubscriberProtocol<Value, Failure>)? in
      guard let downstream = state.downstream else { return nil }
      if event.isTerminal { state.isTerminated = true }
      return downstream
    }
    guard let downstream else { return false }
    downstream.send(event)
    if event.isTerminal {
      finish()
      return false
    }
    return !isDisposed
  }

  /// Gives up the delivery role taken by a held sink, first delivering what queued meanwhile.
  func release() {
    let next = state.withLock { $0.dequeue() }
    guard let next, let downstream = state.withLock({ $0.downstream }) else { return }
    drain(to: downstream, startingWith: next)
  }

  private func drain(
    to downstream: any SubscriberProtocol<Value, Failure>, startingWith first: Event<Value, Failure>
  ) {
    var event = first
    while true {
      downstream.send(event)
      if event.isTerminal {
        finish()
        return
      }
      guard let next = state.withLock({ $0.dequeue() }) else { return }
      event = next
    }
  }

  /// Ends the subscription after its terminal event: releases the downstream, disposes resources.
  private func finish() {
    state.withLock { state in
      state.downstream = nil
      state.isDelivering = false
      state.pending.removeAll()
    }
    resources.dispose()
  }

  func dispose() {
    state.withLock { state in
      state.downstream = nil
      state.isTerminated = true
      state.pending.removeAll()
      state.head = 0
    }
    resources.dispose()
  }

  var isDisposed: Bool {
    state.withLock { $0.downstream == nil }
  }
}
