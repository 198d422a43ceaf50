public import Signals

extension Marble {
  /// How many idle frames in a row the printer draws as dashes; a longer wait prints as a time
  /// progression (`a 99ms b`).
  package static let longestDashRun = 32

  /// Draws recorded events as a marble: the inverse of
  /// ``parse(_:values:error:tick:allowsSubscriptionPoint:)``.
  ///
  /// ```swift
  /// Marble.diagram([.next(2, "a"), .next(2, "b"), .completed(6)] as [Recorded<E>]).marbles
  /// // "--(ab)|"
  /// ```
  ///
  /// The rules, so that `diagram.parse() == events` for every list a signal can send:
  /// - One character per frame. A value that is a one-character `String` (or `Character`) and a
  ///   letter or digit prints as itself; every other value gets a letter — `a`, `b`, `c`…, in order
  ///   of first appearance, skipping letters already printing as themselves — and a line in
  ///   ``MarbleDiagram/legend``. Values with the same description share a letter (use the
  ///   `Equatable` overload to tell apart equal-looking values).
  /// - Events at one tick print as a group `(ab)`, which takes its length in frames, as in RxJS.
  ///   When the next event comes sooner than that — `a` and `b` at tick 0, `c` at tick 1 — no RxJS
  ///   marble can show it, and the group prints as `[ab]`, which takes one frame.
  /// - Events before tick 0 put a `^` at tick 0, in a group with the events at tick 0 if any.
  /// - A wait of more than 32 idle frames prints as a time progression in milliseconds of `tick`
  ///   (`a 99ms b`), exact to the attosecond.
  /// - A digit value that would read as the start of a time progression (`1` then `m` then `s` at
  ///   the start) prints as `[1]`.
  /// - A list no signal can send — times going backwards, events after a terminal event — still
  ///   prints, but ``MarbleDiagram/isExact`` is `false` and ``MarbleDiagram/notes`` says what is
  ///   wrong: an event earlier than the one before it is drawn at the first free frame after it.
  ///
  /// - Parameters:
  ///   - events: The events, as a ``TestSubscriber`` records them.
  ///   - tick: The length of one frame, for time progressions; positive.
  /// - Returns: The diagram; it prints as its marbles.
  public static func diagram<Value, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>], tick: Duration = .milliseconds(1)
  ) -> MarbleDiagram<Value, Failure> {
    MarblePrinter.diagram(
      events, tick: MarbleTime.tickAttoseconds(tick), longestDashRun: longestDashRun, isSame: nil)
  }

  /// Draws recorded events of equatable values as a marble; equal values share a letter.
  ///
  /// The rules are those of the overload for any value; only the sharing of letters differs.
  ///
  /// - Parameters:
  ///   - events: The events, as a ``TestSubscriber`` records them.
  ///   - tick: The length of one frame, for time progressions; positive.
  /// - Returns: The diagram; it prints as its marbles.
  public static func diagram<Value: Equatable, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>], tick: Duration = .milliseconds(1)
  ) -> MarbleDiagram<Value, Failure> {
    MarblePrinter.diagram(
      events, tick: MarbleTime.tickAttoseconds(tick), longestDashRun: longestDashRun,
      isSame: { $0 == $1 })
  }

  /// Draws a subscription as a subscription marble: the inverse of ``parseSubscription(_:tick:)``.
  ///
  /// `(2, 6)` prints as `--^---!`, `(0, ∞)` as `^`, and `(3, 3)` as `---(^!)`. A wait of more than
  /// 32 frames prints as a time progression (`100ms ^`). A ``TestSignal`` never records a tick
  /// before 0 or a disposal before its subscription; such a subscription prints as a marble that
  /// shows it and that ``parseSubscription(_:tick:)`` rejects (`-5ms ^`, `--!-^`).
  ///
  /// - Parameters:
  ///   - subscription: The subscription.
  ///   - tick: The length of one frame, for time progressions; positive.
  /// - Returns: The marble.
  public static func diagram(_ subscription: Subscription, tick: Duration = .milliseconds(1))
    -> String
  {
    MarblePrinter.subscriptionDiagram(
      subscription, tick: MarbleTime.tickAttoseconds(tick), longestDashRun: longestDashRun)
  }

  /// Draws each subscription as a subscription marble, as the overload for one subscription does.
  ///
  /// - Parameters:
  ///   - subscriptions: The subscriptions, as ``TestSignal/subscriptions`` lists them.
  ///   - tick: The length of one frame, for time progressions; positive.
  /// - Returns: One marble per subscription.
  public static func diagram(_ subscriptions: [Subscription], tick: Duration = .milliseconds(1))
    -> [String]
  {
    subscriptions.map { diagram($0, tick: tick) }
  }
}
