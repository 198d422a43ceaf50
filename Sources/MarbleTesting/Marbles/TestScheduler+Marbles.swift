import Signals

extension TestScheduler {
  // MARK: Cold

  /// A cold test signal drawn as a marble: each subscription gets the events at offsets from its
  /// own subscribe time.
  ///
  /// ```swift
  /// let request = try scheduler.cold("---(r|)", values: ["r": response], error: URLError.timeout)
  /// ```
  ///
  /// Frame 0 is the subscription: events there are sent synchronously inside `subscribe`, later
  /// ones through the scheduler. Time progressions use the scheduler's ``tick``.
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles, without `^`.
  ///   - values: The value of each value character.
  ///   - error: The failure `#` stands for.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles, including a `^` (which only hot marbles have).
  public func cold<Value: Sendable, Failure: Error, Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value], error: Failure
  ) throws(MarbleSyntaxError) -> TestSignal<Value, Failure> {
    let events = try Marble.parse(
      marbles, values: values, error: error, tick: tick, allowsSubscriptionPoint: false)
    return TestSignal(kind: .cold, events: events, scheduler: self)
  }

  /// A cold test signal drawn as a marble, whose `#` is a ``TestError``.
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles, without `^`.
  ///   - values: The value of each value character.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles, including a `^`.
  public func cold<Value: Sendable, Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value]
  ) throws(MarbleSyntaxError) -> TestSignal<Value, TestError> {
    try cold(marbles, values: values, error: TestError())
  }

  /// A cold test signal drawn as a marble, whose `#` is `error` and whose values are the
  /// characters themselves as `String`s.
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles, without `^`.
  ///   - error: The failure `#` stands for.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles, including a `^`.
  public func cold<Failure: Error>(
    _ marbles: String, error: Failure
  ) throws(MarbleSyntaxError) -> TestSignal<String, Failure> {
    let events = try Marble.parse(
      marbles, error: error, tick: tick, allowsSubscriptionPoint: false)
    return TestSignal(kind: .cold, events: events, scheduler: self)
  }

  /// A cold test signal drawn as a marble, whose values are the characters themselves as
  /// `String`s and whose `#` is a ``TestError``.
  ///
  /// ```swift
  /// let signal = try scheduler.cold("-a-b-|")
  /// ```
  ///
  /// - Parameter marbles: One line of marbles, without `^`.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles, including a `^`.
  public func cold(_ marbles: String) throws(MarbleSyntaxError) -> TestSignal<String, TestError> {
    try cold(marbles, error: TestError())
  }

  /// A cold test signal drawn as a marble, whose failure type comes from the annotation:
  ///
  /// ```swift
  /// let taps: TestSignal<Int, Never> = try scheduler.cold("-1-2|", values: ["1": 1, "2": 2])
  /// ```
  ///
  /// A `#` needs an error to stand for: for `Never` it is a mistake (the signal cannot fail), and
  /// for any failure type but ``TestError`` it needs the `error:` argument. (Where the failure
  /// type could be ``TestError``, the `TestError` overload is chosen.)
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles, without `^`.
  ///   - values: The value of each value character.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles, including a `^` and a `#` with no error.
  @_disfavoredOverload
  public func cold<Value: Sendable, Failure: Error, Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value]
  ) throws(MarbleSyntaxError) -> TestSignal<Value, Failure> {
    let events = try Marble.parse(
      marbles, values: try Marble.characterKeyed(values, for: marbles),
      error: Marble.defaultError(Failure.self), tick: tick,
      allowsSubscriptionPoint: false, position: .start)
    return TestSignal(kind: .cold, events: events, scheduler: self)
  }

  /// A cold test signal of `String`s drawn as a marble, each value character standing for itself,
  /// whose failure type comes from the annotation (`TestSignal<String, Never>`); a `#` is as in
  /// ``cold(_:values:)->TestSignal<Value,Failure>``.
  ///
  /// - Parameter marbles: One line of marbles, without `^`.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles, including a `^` and a `#` with no error.
  @_disfavoredOverload
  public func cold<Failure: Error>(_ marbles: String) throws(MarbleSyntaxError)
    -> TestSignal<String, Failure>
  {
    let events = try Marble.parse(
      marbles, error: Marble.defaultError(Failure.self), tick: tick,
      allowsSubscriptionPoint: false, position: .start)
    return TestSignal(kind: .cold, events: events, scheduler: self)
  }

  // MARK: Hot

  /// A hot test signal drawn as a marble: its events happen at fixed ticks, to whoever is
  /// subscribed then.
  ///
  /// ```swift
  /// scheduler.advance(to: 10)
  /// let clicks = try scheduler.hot("--a-^-b--|", values: ["a": 1, "b": 2], error: Failure.lost)
  /// // a at tick 8 (before now: nobody gets it), b at 12, completed at 15
  /// ```
  ///
  /// The `^` is the scheduler's current tick (``now``) when `hot` is called; without a `^`, the
  /// start of the string is. Events before it happened before any subscriber could exist and reach
  /// nobody. Time progressions use the scheduler's ``tick``.
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles, with at most one `^`.
  ///   - values: The value of each value character.
  ///   - error: The failure `#` stands for.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles.
  public func hot<Value: Sendable, Failure: Error, Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value], error: Failure
  ) throws(MarbleSyntaxError) -> TestSignal<Value, Failure> {
    let events = try Marble.parse(marbles, values: values, error: error, tick: tick)
    return hot(parsed: events)
  }

  /// A hot test signal drawn as a marble, whose `#` is a ``TestError``.
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles, with at most one `^` (the current tick).
  ///   - values: The value of each value character.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles.
  public func hot<Value: Sendable, Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value]
  ) throws(MarbleSyntaxError) -> TestSignal<Value, TestError> {
    try hot(marbles, values: values, error: TestError())
  }

  /// A hot test signal drawn as a marble, whose `#` is `error` and whose values are the
  /// characters themselves as `String`s.
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles, with at most one `^` (the current tick).
  ///   - error: The failure `#` stands for.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles.
  public func hot<Failure: Error>(
    _ marbles: String, error: Failure
  ) throws(MarbleSyntaxError) -> TestSignal<String, Failure> {
    let events = try Marble.parse(marbles, error: error, tick: tick)
    return hot(parsed: events)
  }

  /// A hot test signal drawn as a marble, whose values are the characters themselves as
  /// `String`s and whose `#` is a ``TestError``.
  ///
  /// ```swift
  /// let hot = try scheduler.hot("--a-^-b--|")   // b at now + 2, completed at now + 5
  /// ```
  ///
  /// - Parameter marbles: One line of marbles, with at most one `^` (the current tick).
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles.
  public func hot(_ marbles: String) throws(MarbleSyntaxError) -> TestSignal<String, TestError> {
    try hot(marbles, error: TestError())
  }

  /// A hot test signal drawn as a marble, whose failure type comes from the annotation:
  ///
  /// ```swift
  /// let clicks: TestSignal<Int, Never> = try scheduler.hot("-1-2|", values: ["1": 1, "2": 2])
  /// ```
  ///
  /// A `#` needs an error to stand for: for `Never` it is a mistake (the signal cannot fail), and
  /// for any failure type but ``TestError`` it needs the `error:` argument. (Where the failure
  /// type could be ``TestError``, the `TestError` overload is chosen.)
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles, with at most one `^` (the current tick).
  ///   - values: The value of each value character.
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles, including a `#` with no error.
  @_disfavoredOverload
  public func hot<Value: Sendable, Failure: Error, Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value]
  ) throws(MarbleSyntaxError) -> TestSignal<Value, Failure> {
    let events = try Marble.parse(
      marbles, values: try Marble.characterKeyed(values, for: marbles),
      error: Marble.defaultError(Failure.self), tick: tick,
      allowsSubscriptionPoint: true, position: .start)
    return hot(parsed: events)
  }

  /// A hot test signal of `String`s drawn as a marble, each value character standing for itself,
  /// whose failure type comes from the annotation (`TestSignal<String, Never>`); a `#` is as in
  /// ``hot(_:values:)->TestSignal<Value,Failure>``.
  ///
  /// - Parameter marbles: One line of marbles, with at most one `^` (the current tick).
  /// - Returns: The signal.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles, including a `#` with no error.
  @_disfavoredOverload
  public func hot<Failure: Error>(_ marbles: String) throws(MarbleSyntaxError)
    -> TestSignal<String, Failure>
  {
    let events = try Marble.parse(
      marbles, error: Marble.defaultError(Failure.self), tick: tick,
      allowsSubscriptionPoint: true, position: .start)
    return hot(parsed: events)
  }

  /// Makes a hot signal from parsed events, whose times count from the current tick.
  private func hot<Value: Sendable, Failure: Error>(
    parsed events: [Recorded<Event<Value, Failure>>]
  ) -> TestSignal<Value, Failure> {
    let now = self.now
    let shifted = events.map { Recorded(time: $0.time.clampedAdding(now), value: $0.value) }
    return TestSignal(kind: .hot, events: shifted, scheduler: self)
  }

  // MARK: Time

  /// The frame of the `|` in a marble — RxJS's `time("---|")` — for the timing arguments of
  /// ported tests: each `-` and value character is a frame, spaces none, a group as long as it is
  /// written, a time progression as many ticks as it lasts.
  ///
  /// ```swift
  /// let quiet = try scheduler.time("---|")   // 3
  /// let source = try scheduler.hot("-a--b-|")
  /// scheduler.expect(source.debounce(scheduler.tick * quiet, on: scheduler)).toBe("----a--b|")
  /// ```
  ///
  /// - Parameter marbles: A marble with exactly one `|`.
  /// - Returns: The frame of the `|`.
  /// - Throws: ``MarbleSyntaxError`` if the marble cannot be read, or has no `|` or more than one.
  public func time(_ marbles: String) throws(MarbleSyntaxError) -> Int {
    let bars = marbles.indices.filter { marbles[$0] == "|" }
    guard bars.count == 1 else {
      let column =
        bars.count == 0
        ? marbles.count + 1 : marbles.distance(from: marbles.startIndex, to: bars[1]) + 1
      throw MarbleSyntaxError(
        message: bars.isEmpty
          ? "time(_:) needs one '|', whose frame it returns; this marble has none"
          : "time(_:) needs exactly one '|', whose frame it returns; this is a second one",
        line: 1, column: column, sourceLine: marbles)
    }
    let events = try Marble.parse(marbles, tick: tick, allowsSubscriptionPoint: false)
    // The one `|` parsed, so it is the last event.
    return events.last!.time
  }
}
