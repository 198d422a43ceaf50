extension SignalProtocol where Value: SignalProtocol, Value.Failure == Failure {
  /// `flatten(.concat)`: one inner signal at a time, the others queued until their turn.
  func concatFlattened() -> Signal<Value.Value, Failure> {
    Signal { downstream in
      let flattening = ConcatFlattening<Value>(downstream)
      flattening.disposables.add(
        self.subscribe(
          next: { flattening.arrived($0) },
          error: { failure in flattening.delivery.update { $1.append(.error(failure)) } },
          completed: { flattening.outerCompleted() }
        ))
      return flattening.disposables
    }
  }
}

/// The state of one `flatten(.concat)` subscription.
struct ConcatState<Inner: Sendable>: Sendable {
  /// Inner signals waiting for the active one to complete.
  var queue: [Inner] = []
  var queueHead = 0
  /// Whether an inner signal is subscribed (or about to be).
  var isActive = false
  var isOuterCompleted = false
  /// Whether ``ConcatFlattening/run(_:)`` is inside an inner signal's `subscribe`.
  var isSubscribing = false
  /// The next inner signal, handed to the running loop by a completion inside `subscribe`.
  var handoff: Inner?

  /// Takes the next queued inner signal, if any.
  mutating func dequeue() -> Inner? {
    guard queueHead < queue.count else { return nil }
    defer {
      queueHead += 1
      if queueHead == queue.count {
        queue.removeAll(keepingCapacity: true)
        queueHead = 0
      }
    }
    return queue[queueHead]
  }
}

/// One `flatten(.concat)` subscription: the queue of inner signals and the active one's
/// subscription.
final class ConcatFlattening<Inner: SignalProtocol>: Sendable {
  let delivery: OrderedDelivery<ConcatState<Inner>, Inner.Value, Inner.Failure>
  let disposables = CompoundDisposable()
  private let current = SerialDisposable()

  init(_ downstream: any SubscriberProtocol<Inner.Value, Inner.Failure>) {
    delivery = OrderedDelivery(ConcatState(), downstream: downstream)
    disposables.add(current)
  }

  /// The outer signal sent `inner`: subscribes to it now if nothing is active, else queues it.
  func arrived(_ inner: Inner) {
    let startsNow = delivery.update { state, _ -> Bool in
      guard !state.isActive else {
        state.queue.append(inner)
        return false
      }
      state.isActive = true
      return true
    }
    if startsNow { run(inner) }
  }

  func outerCompleted() {
    delivery.update { state, outgoing in
      state.isOuterCompleted = true
      if !state.isActive { outgoing.append(.completed) }
    }
  }

  /// Subscribes to `first`, then to each inner signal handed over by a completion that happened
  /// inside `subscribe` — a loop, so a run of inner signals that complete at once cannot overflow
  /// the stack.
  private func run(_ first: Inner) {
    var next: Inner? = first
    while let inner = next, !disposables.isDisposed {
      delivery.update { state, _ in state.isSubscribing = true }
      let delivery = delivery
      current.inner = inner.subscribe(
        next: { value in delivery.update { $1.append(.next(value)) } },
        error: { failure in delivery.update { $1.append(.error(failure)) } },
        completed: { self.innerCompleted() }
      )
      next = delivery.update { state, _ -> Inner? in
        state.isSubscribing = false
        defer { state.handoff = nil }
        return state.handoff
      }
    }
  }

  private func innerCompleted() {
    let next = delivery.update { state, outgoing -> Inner? in
      guard let next = state.dequeue() else {
        state.isActive = false
        if state.isOuterCompleted { outgoing.append(.completed) }
        return nil
      }
      guard !state.isSubscribing else {
        state.handoff = next
        return nil
      }
      return next
    }
    if let next { run(next) }
  }
}
