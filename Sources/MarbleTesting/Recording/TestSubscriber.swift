@_spi(Internals) public import Signals

/// A subscriber that records every event with the virtual tick it arrived at.
///
/// Usually made by ``TestScheduler/record(_:subscribeAt:disposeAt:)->TestSubscriber<S.Value,S.Failure>``; it can also be subscribed by
/// hand: `signal.subscribe(TestSubscriber(scheduler))`.
public final class TestSubscriber<Value: Sendable, Failure: Error>: SubscriberProtocol {
  /// The scheduler whose clock stamps the events, or `nil` once that has been released.
  ///
  /// A recorder holds its scheduler's engine, not the scheduler, so that it never keeps the
  /// scheduler alive.
  public var scheduler: TestScheduler? { core.scheduler }
  /// The scheduler's engine: its clock.
  package let core: SchedulerCore

  // NB: the lock guards the fields below it, which are only touched inside `lock.withLock`. The
  // values are kept apart from their times, and `Recorded` events are only built when read:
  // recording a value then costs 8 bytes plus the value, and no lookup of generic type metadata
  // (this code is not specialized for the caller's types).
  private let lock = Locked(())
  // NB: logs, not arrays: appending to an array held in a class property is checked for exclusive
  // access at run time (a third of the cost of recording a value), and `[Value]` needs its
  // metadata looked up (see ``ValueLog``).
  private let valueTimes = ValueLog<Int>()
  private let recordedValues = ValueLog<Value>()
  /// The terminal event, and anything (wrongly) sent after it, in order.
  nonisolated(unsafe) private var tail: [Recorded<Event<Value, Failure>>] = []
  /// `!tail.isEmpty`, kept apart so that recording a value need not touch the generic array.
  nonisolated(unsafe) private var hasTail = false
  nonisolated(unsafe) private var subscription: (any Disposable)?
  /// Where the test reads this recorder step by step (see `TestSubscriber+Steps.swift`).
  let steps = Locked(StepReading())

  /// Creates a recorder stamping events with `scheduler`'s clock.
  ///
  /// - Parameter scheduler: The clock.
  public init(_ scheduler: TestScheduler) {
    core = scheduler.core
  }

  /// Creates a recorder stamping events with `core`'s clock.
  package init(core: SchedulerCore) {
    self.core = core
  }

  deinit {
    // A recorder the test read step by step must have had every event taken (Turbine's rule);
    // reported here when its test's own code lets go of it (else at its scheduler's release).
    if let (message, site) = takeExhaustiveFinding(), World.isRunningCode(of: core.driver) {
      FailureReporter.report(message, at: site)
    }
  }

  /// How many events have been recorded.
  var eventCount: Int {
    lock.withLock { _ in valueTimes.count + tail.count }
  }

  /// The recorded events from `index` on.
  func events(from index: Int) -> [Recorded<Event<Value, Failure>>] {
    lock.withLock { _ in
      (index..<(valueTimes.count + tail.count)).map(recordedEvent(at:))
    }
  }

  /// The recorded event at `position`, if there is one yet.
  func event(at position: Int) -> Recorded<Event<Value, Failure>>? {
    lock.withLock { _ in
      position < valueTimes.count + tail.count ? recordedEvent(at: position) : nil
    }
  }

  /// The recorded event at `position`, which must exist; called under the lock.
  private func recordedEvent(at position: Int) -> Recorded<Event<Value, Failure>> {
    let values = valueTimes.count
    return position < values
      ? Recorded(time: valueTimes[position], value: .next(recordedValues[position]))
      : tail[position - values]
  }

  /// Every event received, with its tick, in order.
  ///
  /// Inlinable, so that a caller that knows the types builds the list specialized: unspecialized,
  /// building each `Recorded` event looked up its type metadata in the runtime's cache.
  @inlinable
  public var events: [Recorded<Event<Value, Failure>>] {
    let (times, values, tail) = recording()
    var events: [Recorded<Event<Value, Failure>>] = []
    events.reserveCapacity(times.count + tail.count)
    for index in times.indices {
      events.append(Recorded(time: times[index], value: .next(values[index])))
    }
    events += tail
    return events
  }

  /// What has been recorded so far: the values' times, the values, and the tail.
  @usableFromInline
  func recording() -> ([Int], [Value], [Recorded<Event<Value, Failure>>]) {
    lock.withLock { _ in (valueTimes.elements, recordedValues.elements, tail) }
  }

  /// The values received, without times.
  public var values: [Value] {
    lock.withLock { _ in recordedValues.elements + tail.compactMap(\.value.value) }
  }

  /// Whether the signal completed.
  public var isCompleted: Bool {
    lastTailEvent.map { if case .completed = $0 { true } else { false } } ?? false
  }

  /// The failure received, if the signal failed.
  public var error: Failure? {
    lastTailEvent?.failure
  }

  /// The last event if it is not a value recorded in order: only a terminal event, or something
  /// (wrongly) sent after one, can be last without being a plain value.
  private var lastTailEvent: Event<Value, Failure>? {
    lock.withLock { _ in tail.last?.value }
  }

  /// Disposes the recorded subscription now (if it has started).
  public func dispose() {
    lock.withLock { _ in subscription }?.dispose()
  }

  /// Records a value at the scheduler's current tick.
  public func sendNext(_ value: Value) {
    let time = core.now
    lock.withLock { _ in
      if hasTail {
        appendNextToTail(value, at: time)
      } else {
        valueTimes.append(time)
        recordedValues.append(value)
      }
    }
  }

  /// Records a failure at the scheduler's current tick.
  public func sendError(_ error: Failure) { record(.error(error)) }
  /// Records completion at the scheduler's current tick.
  public func sendCompleted() { record(.completed) }

  /// Keeps the subscription so that ``dispose()`` can end it.
  public func didSubscribe(with subscription: any Disposable) {
    lock.withLock { _ in self.subscription = subscription }
  }

  private func record(_ event: Event<Value, Failure>) {
    let recorded = Recorded(time: core.now, value: event)
    lock.withLock { _ in appendToTail(recorded) }
  }

  /// Call with the lock held.
  ///
  /// NB: a function of its own so that `sendNext` has no `Recorded` or `Event` local: unspecialized
  /// code looks up the metadata of every generic type it has a local of when it starts, used or not.
  @inline(never)
  private func appendNextToTail(_ value: Value, at time: Int) {
    appendToTail(Recorded(time: time, value: .next(value)))
  }

  /// Call with the lock held.
  private func appendToTail(_ recorded: Recorded<Event<Value, Failure>>) {
    tail.append(recorded)
    hasTail = true
  }
}

extension TestScheduler {
  /// Subscribes a recorder to `signal` at tick `subscribeAt`, and disposes it at `disposeAt`.
  ///
  /// At the current tick (the default, before anything ran) the recorder subscribes at once, before
  /// `record` returns, as Turbine's `test {}` does: a value sent right after the call — to a
  /// subject, a presenter's output — is recorded, and a cold signal's frame-0 events are already
  /// there. The clock does not move and no other action runs. Called from inside one of the
  /// scheduler's actions, or for a later tick, the subscription is the harness's action at that
  /// tick, as is the disposal: at their tick they run before every other action — a hot test
  /// signal's events, timers — whenever those were scheduled, as RxJS's `TestScheduler` orders
  /// them. So a recorder subscribed at tick 3 gets a hot event at tick 3, and one disposed at tick 3
  /// does not.
  ///
  /// ```swift
  /// let searches = scheduler.record(presenter.searches)
  /// presenter.query.send("sw")  // recorded: the recorder is subscribed already
  /// ```
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
    core.scheduleHarness(at: subscribeAt) { signal.subscribe(subscriber) }
    if let disposeAt { core.scheduleHarness(at: disposeAt) { subscriber.dispose() } }
    return subscriber
  }
}
