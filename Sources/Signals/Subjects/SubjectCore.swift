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
///
/// NB: as in ``Sink``, the lock guards a non-generic ``SubjectControl`` and the generic state is
/// stored beside it, touched only under that lock; subscribers are kept as `AnyObject` so that
/// fanning a value out iterates a non-generic array. In this unspecialized generic code, every
/// generic type touched per event cost a lookup in the runtime's metadata cache.
final class SubjectCore<Value: Sendable, Failure: Error>: Sendable {
  private let control = Locked(SubjectControl())
  /// The subscribers' sinks (`Sink<Value, Failure>`), in subscription order.
  nonisolated(unsafe) private var subscribers: [AnyObject] = []
  /// The last `capacity` values, from `historyHead` on.
  nonisolated(unsafe) private var history: [Value]
  nonisolated(unsafe) private var historyHead = 0
  /// The terminal event once applied; late subscribers receive it at once.
  nonisolated(unsafe) private var terminal: Event<Value, Failure>?
  /// Events waiting for the deliverer, from `queueHead` on.
  nonisolated(unsafe) private var queue: [Event<Value, Failure>] = []
  nonisolated(unsafe) private var queueHead = 0
  nonisolated(unsafe) private var upstreams: [any Disposable] = []
  /// How many values a newcomer is replayed; `Int.max` for all.
  let capacity: Int

  init(capacity: Int, history: [Value] = []) {
    precondition(
      capacity >= 0, "A subject's replay capacity must not be negative (got \(capacity)).")
    self.capacity = capacity
    self.history = history
  }

  /// The most recent value in the history, if any.
  var latestValue: Value? {
    control.withLock { _ in history.count > historyHead ? history.last : nil }
  }

  // MARK: Sending

  /// Sends a value: straight to every subscriber when nobody else is delivering (the usual case),
  /// without wrapping it in an `Event`.
  func sendNext(_ value: Value) {
    var targets: [AnyObject]?
    control.withLock { control in
      guard !control.isTerminating else { return }
      if control.isDelivering {
        enqueueNext(value, &control)
        return
      }
      control.isDelivering = true
      remember(value)
      targets = subscribers
    }
    guard let targets else { return }
    for target in targets {
      unsafeDowncast(target, to: Sink<Value, Failure>.self).sendNext(value)
    }
    endDelivery()
  }

  /// Gives up the delivery role, or delivers what queued meanwhile first.
  private func endDelivery() {
    let hasQueued = control.withLock { control -> Bool in
      if control.queued == 0, queueHead == 0 {
        control.isDelivering = false
        return false
      }
      return true
    }
    if hasQueued { deliverQueued() }
  }

  func send(_ event: Event<Value, Failure>) {
    if case .next(let value) = event { return sendNext(value) }
    var delivery: Delivery?
    control.withLock { control in
      guard !control.isTerminating else { return }
      control.isTerminating = true
      if control.isDelivering {
        enqueue(event, &control)
        return
      }
      control.isDelivering = true
      delivery = apply(event)
    }
    guard let delivery else { return }
    deliver(delivery)
    endDelivery()
  }

  /// An event to deliver, who receives it, and the upstreams it ends.
  private typealias Delivery = (
    event: Event<Value, Failure>, targets: [AnyObject], upstreams: [any Disposable]
  )

  private func deliver(_ delivery: Delivery) {
    for target in delivery.targets {
      unsafeDowncast(target, to: Sink<Value, Failure>.self).send(delivery.event)
    }
    for upstream in delivery.upstreams { upstream.dispose() }
  }

  /// Delivers what queued during a delivery, then gives up the delivery role.
  @inline(never)
  private func deliverQueued() {
    while true {
      var delivery: Delivery?
      control.withLock { control in
        if control.queued == 0 {
          control.isDelivering = false
          if queueHead > 0 {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
          }
          return
        }
        control.queued -= 1
        let event = queue[queueHead]
        queueHead += 1
        delivery = apply(event)
      }
      guard let delivery else { return }
      deliver(delivery)
    }
  }

  /// Queues a value for the deliverer. Call with the lock held.
  ///
  /// NB: a function of its own so that `sendNext` has no `Event` local (see ``Sink``).
  @inline(never)
  private func enqueueNext(_ value: Value, _ control: inout SubjectControl) {
    enqueue(.next(value), &control)
  }

  /// Queues `event` for the deliverer. Call with the lock held.
  @inline(never)
  private func enqueue(_ event: Event<Value, Failure>, _ control: inout SubjectControl) {
    queue.append(event)
    control.queued += 1
  }

  /// Adds `value` to the history, dropping the oldest beyond `capacity`. Call with the lock held.
  private func remember(_ value: Value) {
    guard capacity > 0 else { return }
    history.append(value)
    if history.count - historyHead > capacity {
      historyHead += 1
      // Compact now and then, so trimming costs O(1) per value on average.
      if historyHead >= 32, historyHead * 2 >= history.count {
        history.removeFirst(historyHead)
        historyHead = 0
      }
    }
  }

  /// Records `event` and returns who must receive it, plus the upstreams to dispose if it ends
  /// the subject. Call with the lock held.
  @inline(never)
  private func apply(_ event: Event<Value, Failure>) -> Delivery {
    switch event {
    case .next(let value):
      remember(value)
      return (event, subscribers, [])
    case .error, .completed:
      terminal = event
      defer {
        subscribers = []
        upstreams = []
      }
      return (event, subscribers, upstreams)
    }
  }

  // MARK: Subscribing

  func subscribe(_ subscriber: some SubscriberProtocol<Value, Failure>) -> any Disposable {
    let sink = Sink<Value, Failure>(subscriber, held: true)
    var replay: ArraySlice<Value> = []
    var terminal: Event<Value, Failure>?
    control.withLock { _ in
      if self.terminal == nil { subscribers.append(sink) }
      replay = history[historyHead...]
      terminal = self.terminal
    }
    let id = ObjectIdentifier(sink)
    sink.resources.add { [weak self] in self?.remove(id) }
    subscriber.didSubscribe(with: sink)
    if sink.replayHeld(replay), let terminal { sink.deliverHeld(terminal: terminal) }
    sink.release()
    return sink
  }

  func didSubscribe(with subscription: any Disposable) {
    let isTerminated = control.withLock { control in
      if !control.isTerminating { upstreams.append(subscription) }
      return control.isTerminating
    }
    if isTerminated { subscription.dispose() }
  }

  private func remove(_ id: ObjectIdentifier) {
    let removed = control.withLock { _ -> AnyObject? in
      guard let index = subscribers.lastIndex(where: { ObjectIdentifier($0) == id }) else {
        return nil
      }
      return subscribers.remove(at: index)
    }
    _ = removed
  }
}

/// A ``SubjectCore``'s delivery state. Not nested: a nested type would be generic too, and looked
/// up in the runtime's metadata cache on every event.
private struct SubjectControl {
  /// Set when a terminal event is accepted; later sends are ignored.
  var isTerminating = false
  /// Whether a thread is delivering (and owns the queue).
  var isDelivering = false
  /// How many events wait in `queue`, from `queueHead` on.
  var queued = 0
}
