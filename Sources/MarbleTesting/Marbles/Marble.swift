public import Signals

/// The marble-diagram language: a parser from marbles to recorded events, and a printer back.
///
/// A marble is one line of text in which each frame is one tick of a ``TestScheduler``. It is the
/// RxJS `run`-mode dialect, so RxJS marble tests port verbatim:
///
/// | Marble | Meaning |
/// |---|---|
/// | `-` | One frame passes. |
/// | space | Nothing: whitespace aligns marbles and takes no time. |
/// | `a`, `B`, `7` | A value, one frame. It is looked up in `values:`; without a map, it is the character itself as a `String`. A value is a letter or a digit, or any other key of `values:`. |
/// | `\|` | Completion, one frame. |
/// | `#` | An error, one frame: the `error:` argument, by default ``TestError``. |
/// | `(ab)` | Events in one frame. The group advances time by its length, parentheses included: in `(ab)c`, `a` and `b` are at frame 0 and `c` at frame 4. |
/// | `[ab]` | Events in one frame; the group takes that one frame only: in `[ab]c`, `c` is at frame 1. |
/// | `^` | A hot signal's subscription point: its frame is time 0, frames before it are negative. In a group it marks the group's frame. |
/// | `!` | In a subscription marble only: the unsubscription point. |
/// | `10ms`, `1.5s`, `2m` | Time progression: that long passes, in ticks (rounded up). It starts a word — at the start of the string or after whitespace — and ends at whitespace or the end of the string: `a 9ms b` puts `b` at frame 10. |
///
/// ```swift
/// try Marble.parse("-a-(bc)-|")
/// // [next("a") @ 1, next("b") @ 3, next("c") @ 3, completed @ 8]
/// try Marble.parse("--a-^-b--|")
/// // [next("a") @ -2, next("b") @ 2, completed @ 5]
/// try Marble.parseSubscription("--^---!")   // (2, 6)
/// ```
///
/// A signal whose values are signals is drawn as an outer marble whose value characters stand for
/// inner marbles, each counting frames from the frame its signal is sent at (RxJS's
/// `toBe("-x|", { x: cold("a|") })`): see ``parse(_:inner:values:error:tick:)``,
/// ``RecordedSignal`` and ``TestScheduler/recordHigherOrder(_:subscribeAt:disposeAt:)``.
///
/// Bad input throws a ``MarbleSyntaxError`` that points at the mistake: an unbalanced or nested
/// group, an empty group, a second `^`, a `^` in a cold marble, a `!` in an event marble, an event
/// after `|` or `#`, a character missing from `values:`, a malformed or negative time progression,
/// a time progression inside a group, or a character that is not part of the language. Any string
/// either parses or throws; the parser never traps and never hangs.
///
/// ## Where this differs from RxJS
///
/// - **A time progression at the end of the string is a time progression.** RxJS requires a space
///   after the unit, so it reads a trailing `10ms` as the four values `1`, `0`, `m`, `s`.
/// - **Whitespace, groups and time progressions before `^` do not shift frame 0.** RxJS takes the
///   character index of `^` (after trimming leading spaces) as its frame, so in `a   ^ b` it puts
///   `a` at -4 instead of -1. Here `^` is at frame 0 wherever it stands.
/// - **`^` inside a group** (`(^a)`) marks the group's frame; RxJS miscounts it.
/// - **Typos in time progressions are errors.** `1.5` without a unit, or `10ms|` with no space
///   before the next event, throw instead of silently becoming values. Digits followed by a unit
///   and then a letter or digit (`10msa`) are still values, as in RxJS.
/// - **Only letters and digits (and keys of `values:`) are values**; RxJS takes any other
///   character as a value, which hides typos such as `=` for `-`.
/// - **A character missing from `values:` is an error**; RxJS produces `undefined`.
/// - **Mistakes RxJS accepts silently throw**: nested or unbalanced groups, empty groups, events
///   after a terminal event, a second `^`.
/// - **`[ab]` one-frame groups** are an addition, borrowed from swift-async-algorithms' validation
///   diagrams. RxJS cannot write events closer together than a `(…)` group is long — `a` and `b`
///   at tick 0 and `c` at tick 1 — so the printer needs it to draw every event list exactly.
/// - A cold test signal sends its frame-0 events synchronously inside `subscribe` (see
///   ``TestSignal``).
public enum Marble {
  /// Where a marble sits in a larger text, so a table or fixture parser can report errors at
  /// their place in that text.
  package struct SourcePosition: Sendable, Equatable {
    /// The 1-based line of the marble in the larger text.
    package var line: Int
    /// The 1-based column, in `Character`s, of the marble's first character in ``sourceLine``.
    package var column: Int
    /// The whole line the marble is on; `nil` means the marble is the whole line.
    package var sourceLine: String?

    /// Creates a position.
    ///
    /// - Parameters:
    ///   - line: The 1-based line of the marble.
    ///   - column: The 1-based column of the marble's first character in `sourceLine`.
    ///   - sourceLine: The whole line, or `nil` if the marble is the whole line.
    package init(line: Int, column: Int, sourceLine: String?) {
      self.line = line
      self.column = column
      self.sourceLine = sourceLine
    }

    /// A marble on its own: line 1, column 1.
    package static let start = SourcePosition(line: 1, column: 1, sourceLine: nil)
  }

  // MARK: Parsing events

  /// Parses an event marble whose values come from `values` and whose `#` is `error`.
  ///
  /// Times are frames from the start of the string, or from `^` if there is one (earlier events
  /// get negative times). One frame is one `tick`; a time progression is converted to ticks
  /// rounding up.
  ///
  /// ```swift
  /// let events = try Marble.parse("-a-b-#", values: ["a": 1, "b": 2], error: Failure.timeout)
  /// // [next(1) @ 1, next(2) @ 3, error(Failure.timeout) @ 5]
  /// ```
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles.
  ///   - values: The value of each value character; every one used must be a key.
  ///   - error: The failure `#` stands for.
  ///   - tick: The length of one frame, for time progressions; positive.
  ///   - allowsSubscriptionPoint: Whether a `^` may mark time 0 (hot marbles); `false` for cold.
  /// - Returns: The events, in order, with their times.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake.
  public static func parse<Value, Failure: Error, Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value], error: Failure,
    tick: Duration = .milliseconds(1), allowsSubscriptionPoint: Bool = true
  ) throws(MarbleSyntaxError) -> [Recorded<Event<Value, Failure>>] {
    try parse(
      marbles, values: try characterKeyed(values, for: marbles), error: error, tick: tick,
      allowsSubscriptionPoint: allowsSubscriptionPoint, position: .start)
  }

  /// Parses an event marble whose values come from `values` and whose `#` is a ``TestError``.
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles.
  ///   - values: The value of each value character; every one used must be a key.
  ///   - tick: The length of one frame, for time progressions; positive.
  ///   - allowsSubscriptionPoint: Whether a `^` may mark time 0 (hot marbles); `false` for cold.
  /// - Returns: The events, in order, with their times.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake.
  public static func parse<Value, Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value], tick: Duration = .milliseconds(1),
    allowsSubscriptionPoint: Bool = true
  ) throws(MarbleSyntaxError) -> [Recorded<Event<Value, TestError>>] {
    try parse(
      marbles, values: try characterKeyed(values, for: marbles), error: TestError(), tick: tick,
      allowsSubscriptionPoint: allowsSubscriptionPoint, position: .start)
  }

  /// Parses an event marble in which each value character stands for itself as a `String` and
  /// `#` is `error`.
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles.
  ///   - error: The failure `#` stands for.
  ///   - tick: The length of one frame, for time progressions; positive.
  ///   - allowsSubscriptionPoint: Whether a `^` may mark time 0 (hot marbles); `false` for cold.
  /// - Returns: The events, in order, with their times.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake.
  public static func parse<Failure: Error>(
    _ marbles: String, error: Failure, tick: Duration = .milliseconds(1),
    allowsSubscriptionPoint: Bool = true
  ) throws(MarbleSyntaxError) -> [Recorded<Event<String, Failure>>] {
    try parse(
      marbles, error: error, tick: tick, allowsSubscriptionPoint: allowsSubscriptionPoint,
      position: .start)
  }

  /// Parses an event marble in which each value character stands for itself as a `String` and
  /// `#` is a ``TestError``.
  ///
  /// ```swift
  /// try Marble.parse("a 9ms b|")   // [next("a") @ 0, next("b") @ 10, completed @ 11]
  /// ```
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles.
  ///   - tick: The length of one frame, for time progressions; positive.
  ///   - allowsSubscriptionPoint: Whether a `^` may mark time 0 (hot marbles); `false` for cold.
  /// - Returns: The events, in order, with their times.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake.
  public static func parse(
    _ marbles: String, tick: Duration = .milliseconds(1), allowsSubscriptionPoint: Bool = true
  ) throws(MarbleSyntaxError) -> [Recorded<Event<String, TestError>>] {
    try parse(
      marbles, error: TestError(), tick: tick, allowsSubscriptionPoint: allowsSubscriptionPoint,
      position: .start)
  }

  /// Parses an event marble that sits at `position` in a larger text (a table or a fixture), so
  /// errors report that text's line and column and quote its whole line.
  ///
  /// - Parameters:
  ///   - marbles: The marble, without the rest of its line.
  ///   - values: The value of each value character; every one used must be a key.
  ///   - error: The failure `#` stands for; `nil` makes a `#` a mistake.
  ///   - tick: The length of one frame; positive.
  ///   - allowsSubscriptionPoint: Whether a `^` may mark time 0.
  ///   - position: Where the marble's first character is.
  /// - Returns: The events, in order, with their times.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake.
  package static func parse<Value, Failure: Error>(
    _ marbles: String, values: [Character: Value], error: Failure?, tick: Duration,
    allowsSubscriptionPoint: Bool, position: SourcePosition
  ) throws(MarbleSyntaxError) -> [Recorded<Event<Value, Failure>>] {
    // The scanner checks that every value character is a key.
    try events(
      of: marbles, allowsSubscriptionPoint: allowsSubscriptionPoint, tick: tick,
      position: position, checksKeys: true, hasKey: { values[$0] != nil },
      value: { values[$0[$1]]! },
      error: { index throws(MarbleSyntaxError) in
        try failure(error, at: index, marbles, position)
      })
  }

  /// Parses an event marble of `String` values that sits at `position` in a larger text.
  ///
  /// - Parameters:
  ///   - marbles: The marble, without the rest of its line.
  ///   - error: The failure `#` stands for; `nil` makes a `#` a mistake.
  ///   - tick: The length of one frame; positive.
  ///   - allowsSubscriptionPoint: Whether a `^` may mark time 0.
  ///   - position: Where the marble's first character is.
  /// - Returns: The events, in order, with their times.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake.
  package static func parse<Failure: Error>(
    _ marbles: String, error: Failure?, tick: Duration, allowsSubscriptionPoint: Bool,
    position: SourcePosition
  ) throws(MarbleSyntaxError) -> [Recorded<Event<String, Failure>>] {
    try events(
      of: marbles, allowsSubscriptionPoint: allowsSubscriptionPoint, tick: tick,
      position: position, checksKeys: false, hasKey: { _ in false },
      value: { [strings = MarbleCharacters.asciiStrings] text, index in
        // NB: the table is read once, not once per value.
        text.string(at: index, asciiStrings: strings)
      },
      error: { index throws(MarbleSyntaxError) in
        try failure(error, at: index, marbles, position)
      })
  }

  /// The events of `marbles`, each value character made a value by `value` (given the marble's
  /// characters and its index) and each `#` one by `error` (given its index), at times counted
  /// from its `^` (or the start of the string).
  static func events<Value, Failure: Error>(
    of marbles: String, allowsSubscriptionPoint: Bool, tick: Duration, position: SourcePosition,
    checksKeys: Bool, hasKey: (Character) -> Bool, value: (MarbleCharacters, Int) -> Value,
    error: (Int) throws(MarbleSyntaxError) -> Failure
  ) throws(MarbleSyntaxError) -> [Recorded<Event<Value, Failure>>] {
    let text = MarbleCharacters(marbles)
    var events: [Recorded<Event<Value, Failure>>] = []
    // NB: enough for a marble in which every other character is an event, so that the array
    // rarely grows (and copies itself) while filling.
    events.reserveCapacity(text.count / 2 + 1)
    let scan = try MarbleScanner.scan(
      marbles, text: text, mode: .events(allowsSubscriptionPoint: allowsSubscriptionPoint),
      tick: MarbleTime.tickAttoseconds(tick), position: position, checksKeys: checksKeys,
      hasKey: hasKey
    ) { scanned throws(MarbleSyntaxError) in
      let event: Event<Value, Failure>
      switch scanned.kind {
      case .value: event = .next(value(text, scanned.index))
      case .completed: event = .completed
      case .failed: event = .error(try error(scanned.index))
      }
      events.append(Recorded(time: scanned.frame, value: event))
    }
    if let origin = scan.subscriptionFrame, origin != 0 {
      for index in events.indices { events[index].time -= origin }
    }
    return events
  }

  /// What `#` stands for in a marble of a signal whose failure is `Failure`, when no `error:` was
  /// given: a ``TestError`` if `Failure` can hold one (``TestError`` itself, or `any Error`), else
  /// `nil` — a `#` is then a mistake (for `Never`, the signal cannot fail at all).
  ///
  /// - Parameter failure: The failure type.
  /// - Returns: The default error, or `nil`.
  package static func defaultError<Failure: Error>(_ failure: Failure.Type = Failure.self)
    -> Failure?
  {
    TestError() as? Failure
  }

  /// `error`, or the syntax error a `#` is when there is no error for it to stand for.
  private static func failure<Failure: Error>(
    _ error: Failure?, at index: Int, _ marbles: String, _ position: SourcePosition
  ) throws(MarbleSyntaxError) -> Failure {
    if let error { return error }
    let message =
      Failure.self == Never.self
      ? "'#' is an error, but this signal cannot fail (its Failure is Never)"
      : "'#' is an error; pass error: to say which \(Failure.self) it stands for"
    throw MarbleSyntaxError(
      message: message, line: position.line, column: position.column + index,
      sourceLine: position.sourceLine ?? marbles)
  }

  // MARK: Parsing subscriptions

  /// Parses a subscription marble: `^` where the subscription starts, `!` where it ends.
  ///
  /// Frames count from the start of the string, which is tick 0 of the scheduler: `--^---!` is
  /// `(2, 6)`, `^` alone is `(0, ∞)`, `---(^!)` is a subscription that ended at once, `(3, 3)`, and
  /// a `!` with no `^` subscribes at frame 0, as in RxJS's `expectObservable`: `-----!` is `(0, 5)`.
  /// Besides `^` and `!` a subscription marble holds only `-`, spaces, groups and time
  /// progressions. (RxJS does not advance time at `!`; nothing may follow it that would tell.)
  ///
  /// - Parameters:
  ///   - marbles: One line: a `^` and at most one `!` after it, or a `!` alone.
  ///   - tick: The length of one frame, for time progressions; positive.
  /// - Returns: The subscription.
  /// - Throws: ``MarbleSyntaxError`` if there is neither `^` nor `!`, a second `^` or `!`, a `!`
  ///   before the `^`, or anything else that is not part of a subscription marble.
  public static func parseSubscription(
    _ marbles: String, tick: Duration = .milliseconds(1)
  ) throws(MarbleSyntaxError) -> Subscription {
    try parseSubscription(marbles, tick: tick, position: .start)
  }

  /// Parses a subscription marble that sits at `position` in a larger text.
  ///
  /// - Parameters:
  ///   - marbles: The marble, without the rest of its line.
  ///   - tick: The length of one frame; positive.
  ///   - position: Where the marble's first character is.
  /// - Returns: The subscription.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake.
  package static func parseSubscription(
    _ marbles: String, tick: Duration, position: SourcePosition
  ) throws(MarbleSyntaxError) -> Subscription {
    let scan = try MarbleScanner.scan(
      marbles, text: MarbleCharacters(marbles), mode: .subscription,
      tick: MarbleTime.tickAttoseconds(tick), position: position, checksKeys: false,
      hasKey: { _ in false })
    // The scanner throws when there is neither `^` nor `!`, and puts a lone `!`'s `^` at frame 0.
    return Subscription(subscribed: scan.subscriptionFrame!, disposed: scan.unsubscriptionFrame)
  }
}
