@_spi(Internals) public import Signals

/// A subscriber that records every event with the virtual tick it arrived at.
///
/// Usually made by ``TestScheduler/record(_:subscribeAt:disposeAt:)``; it can also be subscribed by
/// hand: `signal.subscribe(TestSubscriber(scheduler))`.
public final class TestSubscriber<Value: Sendable, Failure: Error>: SubscriberProtocol {
  private struct State {
    var events: [Recorded<Event<Value, Failure>>] = []
    var subscription: (any Disposable)?
  }

  /// The scheduler whose clock stamps the events.
  public let scheduler: TestScheduler
  private let state = Locked(State())

  /// Creates a recorder stamping events with `scheduler`'s clock.
  ///
  /// - Parameter scheduler: The clock.
  public init(_ scheduler: TestScheduler) {
    self.scheduler = scheduler
  }

  /// Every event received, with its tick, in order.
  public var events: [Recorded<Event<Value, Failure>>] {
    state.withLock { $0.events }
  }

  /// The values received, without times.
  public var values: [Value] {
    events.compactMap(\.value.value)
  }

  /// Whether the signal completed.
  public var isCompleted: Bool {
    events.last.map { if case .completed = $0.value { true } else { false } } ?? false
  }

  /// The failure received, if the signal failed.
  public var error: Failure? {
    events.last?.value.failure
  }

  /// Disposes the recorded subscription now (if it has started).
  public func dispose() {
    state.withLock { $0.subscription }?.dispose()
  }

  /// Records a value at the scheduler's current tick.
  public func sendNext(_ value: Value) { record(.next(value)) }
  /// Records a failure at the scheduler's current tick.
  public func sendError(_ error: Failure) { record(.error(error)) }
  /// Records completion at the scheduler's current tick.
  public func sendCompleted() { record(.completed) }

  /// Keeps the subscription so that ``dispose()`` can end it.
  public func didSubscribe(with subscription: any Disposable) {
    state.withLock { $0.subscription = subscription }
  }

  private func record(_ event: Event<Value, Failure>) {
    let recorded = Recorded(time: scheduler.now, value: event)
    state.withLock { $0.events.append(recorded) }
  }
}

extension TestScheduler {
  /// Subscribes a recorder to `signal` at tick `subscribeAt`, and disposes it at `disposeAt`.
  ///
  /// Both are scheduled actions, ordered with everything else by `(time, order scheduled)`: at the
  /// same tick, a hot test signal made earlier sends before this subscription happens.
  ///
  /// ```swift
  /// let subscriber = scheduler.record(hotSignal, subscribeAt: 3, disposeAt: 10)
  /// scheduler.run()
  /// #expect(subscriber.events == [.next(5, "a"), .completed(8)])
  /// ```
  ///
  /// - Parameters:
  ///   - signal: The signal to subscribe to.
  ///   - subscribeAt: The tick to subscribe at.
  ///   - disposeAt: The tick to dispose at, or `nil` to stay subscribed.
  /// - Returns: The recorder.
  public func record<S: SignalProtocol>(
    _ signal: S, subscribeAt: Int = 0, disposeAt: Int? = nil
  ) -> TestSubscriber<S.Value, S.Failure> {
    let subscriber = TestSubscriber<S.Value, S.Failure>(self)
    schedule(at: subscribeAt) { signal.subscribe(subscriber) }
    if let disposeAt { schedule(at: disposeAt) { subscriber.dispose() } }
    return subscriber
  }
}
