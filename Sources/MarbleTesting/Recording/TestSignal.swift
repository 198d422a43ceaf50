@_spi(Internals) public import Signals

/// A scripted signal on a ``TestScheduler`` that logs every subscription to it.
///
/// - A **cold** test signal replays its events for each subscriber at offsets from that
///   subscriber's own subscribe time. Events at offset 0 are sent synchronously inside `subscribe`,
///   exactly as `Signal.just` does (RxJS schedules them after `subscribe` returns, which hides bugs in
///   sharing operators — its issue #5523); later ones through the scheduler.
/// - A **hot** test signal sends its events at absolute ticks to whoever is subscribed then. They are
///   scheduled when the signal is made, so at equal ticks they run before subscriptions scheduled
///   later. Events at ticks before the scheduler's clock (a marble's negative times, before `^`) have
///   happened before any subscriber could exist and reach nobody. Like a ``Subject``, a hot test
///   signal remembers its terminal event and sends it to later subscribers at once.
///
/// ``subscriptions`` lists each subscription as `(subscribed, disposed)`; it closes when the
/// subscriber disposes and also when a terminal event ends it.
public final class TestSignal<Value: Sendable, Failure: Error>: SignalProtocol {
  /// Whether the signal is hot or cold.
  public enum Kind: Sendable, Equatable {
    /// Events at offsets from each subscription.
    case cold
    /// Events at absolute ticks, shared.
    case hot
  }

  /// Hot or cold.
  public let kind: Kind
  /// The script: for cold signals offsets from subscription, for hot ones absolute ticks.
  public let events: [Recorded<Event<Value, Failure>>]
  /// The scheduler that drives it.
  public let scheduler: TestScheduler

  private let log = Locked<[Subscription]>([])
  private let subject: Subject<Value, Failure>?

  /// Each subscription so far, in subscription order.
  public var subscriptions: [Subscription] {
    log.withLock { $0 }
  }

  init(kind: Kind, events: [Recorded<Event<Value, Failure>>], scheduler: TestScheduler) {
    self.kind = kind
    self.events = events
    self.scheduler = scheduler
    guard kind == .hot else {
      subject = nil
      return
    }
    let subject = Subject<Value, Failure>()
    self.subject = subject
    let now = scheduler.now
    for batch in Self.batches(events) where batch.time >= now {
      scheduler.schedule(at: batch.time) {
        for event in batch.events { subject.send(event) }
      }
    }
  }

  /// Subscribes `subscriber` and logs the subscription in ``subscriptions``.
  @discardableResult
  public func subscribe(_ subscriber: some SubscriberProtocol<Value, Failure>) -> any Disposable {
    logged.subscribe(subscriber)
  }

  /// The signal subscribers actually get: the script, plus the subscription log.
  private var logged: Signal<Value, Failure> {
    Signal { subscriber in
      let scheduler = self.scheduler
      let log = self.log
      let index = log.withLock { log -> Int in
        log.append(Subscription(subscribed: scheduler.now))
        return log.count - 1
      }
      let disposables = CompoundDisposable()
      // Added first so that a terminal event sent synchronously below closes the log entry at once.
      disposables.add { log.withLock { $0[index].disposed = scheduler.now } }
      if let subject = self.subject {
        disposables.add(subject.subscribe(subscriber))
      } else {
        let start = scheduler.now
        for batch in Self.batches(self.events) {
          if batch.time == 0 {
            for event in batch.events { subscriber.send(event) }
          } else {
            disposables.add(
              scheduler.schedule(at: start.clampedAdding(batch.time)) {
                for event in batch.events { subscriber.send(event) }
              })
          }
        }
      }
      return disposables
    }
  }

  /// The events grouped by tick, so that one scheduled action sends a whole group.
  private static func batches(
    _ events: [Recorded<Event<Value, Failure>>]
  ) -> [(time: Int, events: [Event<Value, Failure>])] {
    var batches: [(time: Int, events: [Event<Value, Failure>])] = []
    for event in events {
      if batches.last?.time == event.time {
        batches[batches.count - 1].events.append(event.value)
      } else {
        batches.append((event.time, [event.value]))
      }
    }
    return batches
  }
}

extension TestScheduler {
  /// A cold test signal: each subscription gets `events` at offsets from its subscribe time.
  ///
  /// ```swift
  /// let request = try scheduler.cold([.next(3, "response"), .completed(3)])
  /// ```
  ///
  /// - Parameter events: The script, times relative to subscription (0 = at once, synchronously).
  /// - Returns: The signal.
  /// - Throws: ``EventListError`` if the list breaks the event grammar, goes back in time or has a
  ///   negative time.
  public func cold<Value: Sendable, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>]
  ) throws(EventListError) -> TestSignal<Value, Failure> {
    try EventListError.validate(events, cold: true)
    return TestSignal(kind: .cold, events: events, scheduler: self)
  }

  /// A hot test signal: `events` happen at absolute ticks, to whoever is subscribed then.
  ///
  /// - Parameter events: The script, in absolute ticks; events before the clock reach nobody.
  /// - Returns: The signal.
  /// - Throws: ``EventListError`` if the list breaks the event grammar or goes back in time.
  public func hot<Value: Sendable, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>]
  ) throws(EventListError) -> TestSignal<Value, Failure> {
    try EventListError.validate(events, cold: false)
    return TestSignal(kind: .hot, events: events, scheduler: self)
  }
}
