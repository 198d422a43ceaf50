/// An operator's per-subscription state together with the events it decided to send, delivered to
/// the downstream in exactly the order they were decided — and never while the lock is held.
///
/// An operator fed by two signals (`combineLatest`, `zip`, a switching `flatten`) decides each
/// outgoing event under its state lock, but must send it after releasing the lock (STYLE rule 4).
/// Between the two, another thread could decide and send a later event first: `combineLatest` would
/// then end on a stale pair. So the decision only *queues* the event, under the same lock; whoever
/// finds nobody delivering becomes the deliverer and drains the queue outside the lock, in order. A
/// re-entrant call (the downstream's callback making a source send) queues its events and returns;
/// the deliverer sends them once the current callback returns. This is ``Sink``'s scheme, moved in
/// front of the state transition.
final class OrderedDelivery<State: Sendable, Value: Sendable, Failure: Error>: Sendable {
  private struct Storage: Sendable {
    var state: State
    var queue: [Event<Value, Failure>] = []
    var isDelivering = false
  }

  private let storage: Locked<Storage>
  private let downstream: any SubscriberProtocol<Value, Failure>

  init(_ state: State, downstream: any SubscriberProtocol<Value, Failure>) {
    storage = Locked(Storage(state: state))
    self.downstream = downstream
  }

  /// Runs `transition` on the state under the lock, then delivers the events it appended to
  /// `outgoing` (and any queued meanwhile) unless another call is already delivering.
  ///
  /// `transition` must not call out: it runs while the lock is held.
  ///
  /// - Parameter transition: Updates the state and appends the events to send.
  /// - Returns: What `transition` returned.
  @discardableResult
  func update<Result: Sendable>(
    _ transition: (inout State, inout [Event<Value, Failure>]) -> Result
  ) -> Result {
    let (result, batch) = storage.withLock { storage -> (Result, [Event<Value, Failure>]) in
      let result = transition(&storage.state, &storage.queue)
      guard !storage.isDelivering, !storage.queue.isEmpty else { return (result, []) }
      storage.isDelivering = true
      defer { storage.queue = [] }
      return (result, storage.queue)
    }
    var events = batch
    while !events.isEmpty {
      for event in events { downstream.send(event) }
      events = storage.withLock { storage -> [Event<Value, Failure>] in
        defer { storage.queue = [] }
        if storage.queue.isEmpty { storage.isDelivering = false }
        return storage.queue
      }
    }
    return result
  }
}
