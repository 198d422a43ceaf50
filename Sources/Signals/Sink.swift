import Synchronization

/// One subscription's delivery point: it serializes events to the downstream subscriber, enforces
/// the event grammar and releases everything once the subscription ends.
///
/// Serialization without holding a lock while calling out: a thread that finds nobody delivering
/// becomes the deliverer and drains; a thread (or a re-entrant call from the downstream's own
/// callback) that finds a delivery under way queues its event and returns. The deliverer delivers
/// queued events in order once the current callback returns.
///
/// A sink can start *held*: the subscribing thread owns delivery from the start, so a subject can
/// replay its history to the newcomer (``replayHeld(_:)``, ``deliverHeld(terminal:)``) while live
/// events sent meanwhile from other threads queue up behind the replay, then ``release()`` delivers
/// them.
///
/// NB: the lock guards a non-generic ``SinkControl``; the generic parts (the downstream, the queue) are
/// stored beside it and only touched while that lock is held. Code in this generic class is not
/// specialized for the caller's types, and a lock around a generic state made every event look up
/// the state's, the mutex's and `Event`'s type metadata in the runtime's cache. A value sent while
/// nobody else is delivering — almost always — goes straight to the subscriber's `sendNext`, without
/// becoming an `Event`.
final class Sink<Value: Sendable, Failure: Error>: SubscriberProtocol, Disposable {
  private let control: Locked<SinkControl>
  /// Whether `downstream` has been released (terminated or disposed). Set under the lock, read
  /// without it too: a replay checks it after every value.
  private let released = Atomic(false)
  /// The receiver, a ``Downstream``; one around a ``ReleasedSubscriber`` once the subscription has
  /// terminated or been disposed (`released`). Guarded by `control`'s lock.
  ///
  /// NB: typed `AnyObject`, so that the lock's closures return a type whose metadata is static.
  /// Returning the existential `any SubscriberProtocol<Value, Failure>` (or any generic type) from
  /// them looked up its metadata in the runtime's cache on every event.
  nonisolated(unsafe) private var downstream: AnyObject
  /// Events waiting for the deliverer, from `head` on. Guarded by `control`'s lock.
  nonisolated(unsafe) private var pending: [Event<Value, Failure>] = []
  nonisolated(unsafe) private var head = 0
  /// What the subscription owns: disposed when it terminates or is disposed.
  let resources = CompoundDisposable()

  init(_ downstream: any SubscriberProtocol<Value, Failure>, held: Bool = false) {
    self.downstream = Downstream(downstream)
    control = Locked(SinkControl(isDelivering: held))
  }

  func sendNext(_ value: Value) {
    var shouldDeliver = false
    let target = control.withLock { control -> AnyObject in
      if !control.isTerminated {
        if control.isDelivering {
          enqueueNext(value, &control)
        } else {
          control.isDelivering = true
          shouldDeliver = true
        }
      }
      return downstream
    }
    guard shouldDeliver else { return }
    let receiver = Self.receiver(target)
    receiver.subscriber.sendNext(value)
    let hasQueued = control.withLock { control -> Bool in
      if control.queued == 0 {
        // NB: `pending` is empty whenever `queued` is 0 here (a drain always ends by emptying it).
        control.isDelivering = false
        return false
      }
      return true
    }
    if hasQueued { continueDelivery(to: receiver) }
  }

  func sendError(_ error: Failure) { send(.error(error)) }
  func sendCompleted() { send(.completed) }

  /// This sink was handed on as the subscriber of another signal — a subscribe closure that
  /// forwards, `inner.subscribe(subscriber)`, whether or not it returns the disposable — so that
  /// subscription belongs to this one and ends with it, as it does with RAC's passthrough
  /// subscriber. (After this subscription has ended, it is disposed at once.)
  ///
  /// A forwarded subscription that ends first — the inner signal finished, or was disposed — is
  /// dropped from this one's resources at once (RAC prunes them the same way), so a long-lived
  /// subscription that forwards many short ones does not keep them all.
  func didSubscribe(with subscription: any Disposable) {
    resources.add(subscription)
    guard let inner = subscription as? any EndObservable else { return }
    let id = ObjectIdentifier(inner)
    inner.onEnd { [weak resources] in resources?.remove(id) }
  }

  func send(_ event: Event<Value, Failure>) {
    var shouldDeliver = false
    let target = control.withLock { control -> AnyObject in
      if !control.isTerminated {
        if event.isTerminal { control.isTerminated = true }
        if control.isDelivering {
          enqueue(event, &control)
        } else {
          control.isDelivering = true
          shouldDeliver = true
        }
      }
      return downstream
    }
    if shouldDeliver { drain(to: Self.receiver(target), startingWith: event) }
  }

  /// Queues a value for the deliverer. Call with the lock held.
  ///
  /// NB: a function of its own so that `sendNext` has no `Event` local: unspecialized code looks
  /// up the metadata of every generic type it has a local of when it starts, used or not.
  @inline(never)
  private func enqueueNext(_ value: Value, _ control: inout SinkControl) {
    enqueue(.next(value), &control)
  }

  /// Queues `event` for the deliverer. Call with the lock held.
  @inline(never)
  private func enqueue(_ event: Event<Value, Failure>, _ control: inout SinkControl) {
    pending.append(event)
    control.queued += 1
  }

  /// Takes the next queued event, or gives up the delivery role. Call with the lock held.
  @inline(never)
  private func dequeue(_ control: inout SinkControl) -> Event<Value, Failure>? {
    guard !isDisposed, control.queued > 0 else {
      control.isDelivering = false
      if !pending.isEmpty { pending.removeAll() }
      head = 0
      control.queued = 0
      return nil
    }
    defer {
      head += 1
      control.queued -= 1
    }
    return pending[head]
  }

  /// After delivering a value, delivers what queued meanwhile.
  @inline(never)
  private func continueDelivery(to downstream: Downstream<Value, Failure>) {
    var next: Event<Value, Failure>?
    control.withLock { next = dequeue(&$0) }
    if let next { drain(to: downstream, startingWith: next) }
  }

  /// Delivers `values` while the caller owns delivery (a held sink during a subject's replay),
  /// stopping early if the subscription is disposed meanwhile (perhaps by a value just sent).
  ///
  /// Replayed values come before anything queued meanwhile, so a live terminal event already
  /// queued (`isTerminated`) does not stop the replay; only disposal does.
  ///
  /// - Returns: `false` once the subscription is over.
  func replayHeld(_ values: ArraySlice<Value>) -> Bool {
    let target = Self.receiver(control.withLock { _ in downstream })
    guard !isDisposed else { return false }
    return values.withUnsafeBufferPointer { replay($0, to: target.subscriber) }
  }

  /// ``replayHeld(_:)``'s loop, with the subscriber's existential opened once rather than per
  /// value, over a buffer (an `ArraySlice`'s iterator costs a few calls per step unspecialized).
  private func replay(
    _ values: UnsafeBufferPointer<Value>, to subscriber: some SubscriberProtocol<Value, Failure>
  ) -> Bool {
    var index = 0
    while index < values.count {
      subscriber.sendNext(values[index])
      if isDisposed { return false }
      index += 1
    }
    return true
  }

  /// Delivers a subject's remembered terminal event at the end of a replay, while the caller owns
  /// delivery, and ends the subscription.
  func deliverHeld(terminal: Event<Value, Failure>) {
    var isLive = false
    let target = control.withLock { control -> AnyObject in
      isLive = !isDisposed
      if isLive { control.isTerminated = true }
      return downstream
    }
    guard isLive else { return }
    Self.receiver(target).subscriber.send(terminal)
    finish()
  }

  /// Gives up the delivery role taken by a held sink, first delivering what queued meanwhile.
  func release() {
    var next: Event<Value, Failure>?
    let target = control.withLock { control -> AnyObject in
      next = dequeue(&control)
      return downstream
    }
    guard let next else { return }
    drain(to: Self.receiver(target), startingWith: next)
  }

  private func drain(
    to downstream: Downstream<Value, Failure>, startingWith first: Event<Value, Failure>
  ) {
    var event = first
    while true {
      downstream.subscriber.send(event)
      if event.isTerminal {
        finish()
        return
      }
      var next: Event<Value, Failure>?
      control.withLock { next = dequeue(&$0) }
      guard let next else { return }
      event = next
    }
  }

  /// Ends the subscription after its terminal event: releases the downstream, disposes resources.
  private func finish() {
    let dropped = releaseDownstream(isDelivering: false)
    _ = dropped
    resources.dispose()
  }

  func dispose() {
    let dropped = releaseDownstream(isDelivering: nil)
    _ = dropped
    resources.dispose()
  }

  /// Drops the downstream and the queue under the lock, and returns them so that they are
  /// released after it (their deinitializers may call back in).
  private func releaseDownstream(
    isDelivering: Bool?
  ) -> (AnyObject, [Event<Value, Failure>]) {
    let placeholder = Downstream(ReleasedSubscriber<Value, Failure>())
    return control.withLock { control in
      released.store(true, ordering: .releasing)
      control.isTerminated = true
      control.queued = 0
      if let isDelivering { control.isDelivering = isDelivering }
      defer {
        downstream = placeholder
        pending = []
        head = 0
      }
      return (downstream, pending)
    }
  }

  var isDisposed: Bool {
    released.load(ordering: .acquiring)
  }

  /// `downstream`, read under the lock, as what it is.
  ///
  /// NB: callers call `.subscriber` on the box in place: copying the existential out copies the
  /// subscriber (a closure subscriber's three closures: three retains and releases per event).
  private static func receiver(_ downstream: AnyObject) -> Downstream<Value, Failure> {
    unsafeDowncast(downstream, to: Downstream<Value, Failure>.self)
  }
}

/// A ``Sink``'s receiver, boxed so that the sink can hand it out of its lock as a plain reference.
private final class Downstream<Value: Sendable, Failure: Error> {
  let subscriber: any SubscriberProtocol<Value, Failure>

  init(_ subscriber: any SubscriberProtocol<Value, Failure>) {
    self.subscriber = subscriber
  }
}

/// A ``Sink``'s delivery state. Not nested in `Sink`: a nested type would be generic too, and
/// looked up in the runtime's metadata cache on every event.
private struct SinkControl {
  /// Whether a thread is delivering (and owns the queue).
  var isDelivering: Bool
  /// Whether a terminal event has been accepted, or the sink disposed; later events are dropped.
  var isTerminated = false
  /// How many events wait in `pending`, from `head` on: `pending.count - head`, kept here so that
  /// the common path need not touch the generic array.
  var queued = 0
}

/// What a ``Sink`` holds once its subscription is over: it receives nothing, and holds nothing.
private struct ReleasedSubscriber<Value: Sendable, Failure: Error>: SubscriberProtocol {
  func sendNext(_ value: Value) {}
  func sendError(_ error: Failure) {}
  func sendCompleted() {}
}

extension Sink: EndObservable {
  func onEnd(_ action: @escaping @Sendable () -> Void) {
    resources.add(action)
  }
}

/// A subscription that can say when it ends (terminates or is disposed), so that whoever keeps it
/// can let it go.
protocol EndObservable: AnyObject {
  /// Runs `action` once the subscription has ended — at once if it already has.
  func onEnd(_ action: @escaping @Sendable () -> Void)
}
