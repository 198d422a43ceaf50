/// The shared machinery of ``Subject``, ``ReplaySubject`` and ``BehaviorSubject``: a list of
/// subscribers, a bounded history of values, the remembered terminal event, and the upstream
/// subscriptions feeding the subject.
///
/// Sends are serialized at the subject, not only per subscriber, so every subscriber sees the same
/// order: the first sender to arrive delivers, and events sent meanwhile — from other threads, or
/// re-entrantly from a subscriber's callback — queue and are delivered, to every subscriber, after the
/// current event has reached them all. Each event is applied to the history and the subscriber list
/// is snapshotted under one lock, so a newcomer gets any given value either by replay or live, never
/// both and never neither.
final class SubjectCore<Value: Sendable, Failure: Error>: Sendable {
  private struct State {
    var subscribers: [Sink<Value, Failure>] = []
    /// The last `capacity` values.
    var history: [Value] = []
    /// Set when a terminal event is accepted; later sends are ignored.
    var isTerminating = false
    /// The terminal event once applied; late subscribers receive it at once.
    var terminal: Event<Value, Failure>?
    var isDelivering = false
    var queue: [Event<Value, Failure>] = []
    var queueHead = 0
    var upstreams: [any Disposable] = []

    /// Records `event` and returns who must receive it, plus the upstreams to dispose if it ends
    /// the subject.
    mutating func apply(
      _ event: Event<Value, Failure>, capacity: Int
    ) -> (targets: [Sink<Value, Failure>], upstreams: [any Disposable]) {
      switch event {
      case .next(let value):
        if capacity > 0 {
          history.append(value)
          if history.count > capacity { history.removeFirst(history.count - capacity) }
        }
        return (subscribers, [])
      case .error, .completed:
        terminal = event
        defer {
          subscribers = []
          upstreams = []
        }
        return (subscribers, upstreams)
      }
    }

    mutating func dequeue() -> Event<Value, Failure>? {
      guard queueHead < queue.count else {
        isDelivering = false
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
        return nil
      }
      defer { queueHead += 1 }
      return queue[queueHead]
    }
  }

  private let state: Locked<State>
  /// How many values a newcomer is replayed; `Int.max` for all.
  let capacity: Int

  init(capacity: Int, history: [Value] = []) {
    precondition(
      capacity >= 0, "A subject's replay capacity must not be negative (got \(capacity)).")
    self.capacity = capacity
    state = Locked(State(history: history))
  }

  /// The most recent value in the history, if any.
  var latestValue: Value? {
    state.withLock { $0.history.last }
  }

  func send(_ event: Event<Value, Failure>) {
    let first = state.withLock {
      state -> (Event<Value, Failure>, [Sink<Value, Failure>], [any Disposable])? in
      guard !state.isTerminating else { return nil }
      if event.isTerminal { state.isTerminating = true }
      if state.isDelivering {
        state.queue.append(event)
        return nil
      }
      state.isDelivering = true
      let (targets, upstreams) = state.apply(event, capacity: capacity)
      return (event, targets, upstreams)
    }
    guard var (event, targets, upstreams) = first else { return }
    while true {
      for sink in targets { sink.send(event) }
      for upstream in upstreams { upstream.dispose() }
      let capacity = capacity
      let next = state.withLock {
        state -> (Event<Value, Failure>, [Sink<Value, Failure>], [any Disposable])? in
        guard let next = state.dequeue() else { return nil }
        let (targets, upstreams) = state.apply(next, capacity: capacity)
        return (next, targets, upstreams)
      }
      guard let next else { return }
      (event, targets, upstreams) = next
    }
  }

  func subscribe(_ subscriber: some SubscriberProtocol<Value, Failure>) -> any Disposable {
    let sink = Sink<Value, Failure>(subscriber, held: true)
    let (history, terminal) = state.withLock { state in
      if state.terminal == nil { state.subscribers.append(sink) }
      return (state.history, state.terminal)
    }
    let id = ObjectIdentifier(sink)
    sink.resources.add { [weak self] in self?.remove(id) }
    subscriber.didSubscribe(with: sink)
    var replaying = true
    for value in history where replaying {
      replaying = sink.deliverHeld(.next(value))
    }
    if replaying, let terminal { sink.deliverHeld(terminal) }
    sink.release()
    return sink
  }

  func didSubscribe(with subscription: any Disposable) {
    let isTerminated = state.withLock { state in
      if !state.isTerminating { state.upstreams.append(subscription) }
      return state.isTerminating
    }
    if isTerminated { subscription.dispose() }
  }

  private func remove(_ id: ObjectIdentifier) {
    state.withLock { state in
      if let index = state.subscribers.lastIndex(where: { ObjectIdentifier($0) == id }) {
        state.subscribers.remove(at: index)
      }
    }
  }
}
