@_spi(Internals) public import Signals

/// A scripted signal on a ``TestScheduler`` that logs every subscription to it.
///
/// - A **cold** test signal replays its events for each subscriber at offsets from that
///   subscriber's own subscribe time. Events at offset 0 are sent synchronously inside `subscribe`,
///   exactly as `Signal.just` does (RxJS schedules them after `subscribe` returns, which hides bugs in
///   sharing operators — its issue #5523); later ones through the scheduler.
/// - A **hot** test signal sends its events at absolute ticks to whoever is subscribed then. At one
///   tick, the subscriptions and disposals of recorders (``TestScheduler/record(_:subscribeAt:disposeAt:)->TestSubscriber<S.Value,S.Failure>``,
///   `expect`, tables) come first, as in RxJS: a recorder subscribed at tick 3 gets the event at
///   tick 3, one disposed at tick 3 does not. Events at ticks before the scheduler's clock (a
///   marble's negative times, before `^`) have happened before any subscriber could exist and reach
///   nobody. Like a ``/Signals/Subject``, a hot test signal remembers its terminal event and sends it to later
///   subscribers at once.
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
  /// The scheduler that drives it, or `nil` once that has been released.
  ///
  /// A test signal holds its scheduler's engine, not the scheduler, so that it never keeps the
  /// scheduler alive.
  public var scheduler: TestScheduler? { core.scheduler }
  /// The scheduler's engine.
  package let core: SchedulerCore

  private let log = Locked<[Subscription]>([])
  /// The script grouped by tick, so that one scheduled action sends a whole tick's events.
  private let script: Script
  private let subject: Subject<Value, Failure>?

  /// Each subscription so far, in subscription order.
  public var subscriptions: [Subscription] {
    log.withLock { $0 }
  }

  /// A test signal playing a validated event list.
  convenience init(kind: Kind, events: [Recorded<Event<Value, Failure>>], scheduler: TestScheduler)
  {
    self.init(kind: kind, events: events, script: Script(events), scheduler: scheduler)
  }

  @usableFromInline
  convenience init(
    kind: Kind, events: [Recorded<Event<Value, Failure>>], script: Script, scheduler: TestScheduler
  ) {
    self.init(kind: kind, events: events, script: script, core: scheduler.core)
  }

  init(
    kind: Kind, events: [Recorded<Event<Value, Failure>>], script: Script, core: SchedulerCore
  ) {
    self.kind = kind
    self.events = events
    self.core = core
    self.script = script
    let scheduler = core
    guard kind == .hot else {
      subject = nil
      return
    }
    let subject = Subject<Value, Failure>()
    self.subject = subject
    let now = scheduler.now
    for tick in 0..<script.times.count where script.times[tick] >= now {
      let values = script.values
      let range = script.range(tick)
      if tick == script.times.count - 1, let terminal = script.terminal {
        scheduler.schedule(at: script.times[tick]) {
          Self.forEach(values, range) { subject.sendNext($0) }
          subject.send(terminal)
        }
      } else {
        // NB: without the terminal event in its context: a captured `Event?` costs lookups in the
        // runtime's metadata cache on every run.
        // The subject's own type, not `some SubscriberProtocol`: a generic call looks it up.
        scheduler.schedule(at: script.times[tick]) {
          Self.forEach(values, range) { subject.sendNext($0) }
        }
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
      let scheduler = self.core
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
        let script = self.script
        for tick in 0..<script.times.count {
          if script.times[tick] == 0 {
            Self.send(script, tick, to: subscriber)
          } else {
            disposables.add(
              scheduler.schedule(at: start.clampedAdding(script.times[tick])) {
                Self.send(script, tick, to: subscriber)
              })
          }
        }
      }
      return disposables
    }
  }

  /// Sends one tick's events.
  ///
  /// NB: values go out as values, not `Event`s: this code runs unspecialized, and each generic type
  /// it touches per event costs a lookup in the runtime's metadata cache.
  private static func send(
    _ script: Script, _ tick: Int, to subscriber: some SubscriberProtocol<Value, Failure>
  ) {
    forEach(script.values, script.range(tick)) { subscriber.sendNext($0) }
    if tick == script.times.count - 1, let terminal = script.terminal { subscriber.send(terminal) }
  }

  /// A plain index loop: `for in` over an array in unspecialized code looks up its iterator's
  /// metadata on every step.
  private static func forEach(_ values: [Value], _ range: Range<Int>, _ body: (Value) -> Void) {
    var index = range.lowerBound
    while index < range.upperBound {
      body(values[index])
      index += 1
    }
  }

  /// A validated script grouped by tick: tick `i` happens at `times[i]` and sends
  /// `values[range(i)]`; the last tick then sends `terminal`, if there is one.
  ///
  /// NB: callers test `tick == times.count - 1` before reading `terminal`, rather than asking a
  /// helper for an `Event?` per tick: unspecialized, that looked up `Optional<Event>`'s metadata at
  /// every tick (0.05 G instructions over phase b's 100k ticks).
  ///
  /// NB: plain arrays rather than a list of per-tick groups: code in this generic class is not
  /// specialized for the caller's types, and stepping through an array of generic tuples or structs
  /// looks up their type metadata in the runtime's cache at every step.
  @usableFromInline
  struct Script: Sendable {
    /// The ticks, ascending.
    @usableFromInline var times: [Int] = []
    /// Where each tick's values end in `values`.
    @usableFromInline var ends: [Int] = []
    /// All the values, in order.
    @usableFromInline var values: [Value] = []
    /// The terminal event, at the last tick.
    @usableFromInline var terminal: Event<Value, Failure>?

    /// Groups a validated event list (nothing follows a terminal event, times never decrease).
    ///
    /// Inlinable, so that a caller that knows the types runs it specialized.
    @inlinable
    init(_ events: [Recorded<Event<Value, Failure>>]) {
      values.reserveCapacity(events.count)
      for event in events {
        if times.last != event.time {
          times.append(event.time)
          ends.append(values.count)
        }
        if case .next(let value) = event.value {
          values.append(value)
          ends[ends.count - 1] = values.count
        } else {
          terminal = event.value
        }
      }
    }

    /// The positions in `values` of tick `tick`'s values.
    func range(_ tick: Int) -> Range<Int> {
      (tick == 0 ? 0 : ends[tick - 1])..<ends[tick]
    }
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
  @inlinable
  public func cold<Value: Sendable, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>]
  ) throws(EventListError) -> TestSignal<Value, Failure> {
    try EventListError.validate(events, cold: true)
    return TestSignal(kind: .cold, events: events, script: .init(events), scheduler: self)
  }

  /// A hot test signal: `events` happen at absolute ticks, to whoever is subscribed then.
  ///
  /// - Parameter events: The script, in absolute ticks; events before the clock reach nobody.
  /// - Returns: The signal.
  /// - Throws: ``EventListError`` if the list breaks the event grammar or goes back in time.
  @inlinable
  public func hot<Value: Sendable, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>]
  ) throws(EventListError) -> TestSignal<Value, Failure> {
    try EventListError.validate(events, cold: false)
    return TestSignal(kind: .hot, events: events, script: .init(events), scheduler: self)
  }
}
