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
  public func cold<Value: Sendable, Failure: Error>(
    _ marbles: String, values: [Character: Value], error: Failure
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
  public func cold<Value: Sendable>(
    _ marbles: String, values: [Character: Value]
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
  public func hot<Value: Sendable, Failure: Error>(
    _ marbles: String, values: [Character: Value], error: Failure
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
  public func hot<Value: Sendable>(
    _ marbles: String, values: [Character: Value]
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

  /// Makes a hot signal from parsed events, whose times count from the current tick.
  private func hot<Value: Sendable, Failure: Error>(
    parsed events: [Recorded<Event<Value, Failure>>]
  ) -> TestSignal<Value, Failure> {
    let now = self.now
    let shifted = events.map { Recorded(time: $0.time.clampedAdding(now), value: $0.value) }
    return TestSignal(kind: .hot, events: shifted, scheduler: self)
  }
}
