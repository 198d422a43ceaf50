public import Signals

extension Marble {
  /// Parses a marble of inner signals: each value character of `marbles` stands for the inner
  /// signal drawn by its entry in `inner`, whose frames count from the frame it is sent at.
  ///
  /// ```swift
  /// let events = try Marble.parse("--a--b|", inner: ["a": "-x|", "b": "(y|)"], values: ["x": 1, "y": 2])
  /// // [next(-x|) @ 2, next((y|)) @ 5, completed @ 6]
  /// ```
  ///
  /// - Parameters:
  ///   - marbles: The outer marble, without `^`; every value character must be a key of `inner`.
  ///   - inner: The marble of each inner signal, without `^`.
  ///   - values: What the inner marbles' value characters stand for.
  ///   - error: What `#` stands for, in the outer marble and the inner ones.
  ///   - tick: The length of one frame, for time progressions; positive.
  /// - Returns: The outer events, each inner signal as a ``RecordedSignal``.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake; one in an inner marble names its key.
  public static func parse<Value, Failure: Error, Key: MarbleValueKey>(
    _ marbles: String, inner: [Character: String], values: [Key: Value], error: Failure,
    tick: Duration = .milliseconds(1)
  ) throws(MarbleSyntaxError) -> [Recorded<Event<RecordedSignal<Value, Failure>, Failure>>] {
    let signals = try parseInner(
      inner, values: try characterKeyed(values, for: marbles), error: error, tick: tick)
    return try parseKeys(marbles, inner: inner, error: error, tick: tick).map { recorded in
      Recorded(time: recorded.time, value: recorded.value.map { signals[$0]! })
    }
  }

  /// The outer marble with each value as its key character.
  static func parseKeys<Failure: Error>(
    _ marbles: String, inner: [Character: String], error: Failure?, tick: Duration
  ) throws(MarbleSyntaxError) -> [Recorded<Event<Character, Failure>>] {
    let keys = Dictionary(uniqueKeysWithValues: inner.keys.map { ($0, $0) })
    return try parse(
      marbles, values: keys, error: error, tick: tick, allowsSubscriptionPoint: false,
      position: .start)
  }

  /// Each inner marble parsed, in key order; an error names the key.
  static func parseInner<Value, Failure: Error>(
    _ inner: [Character: String], values: [Character: Value], error: Failure?, tick: Duration
  ) throws(MarbleSyntaxError) -> [Character: RecordedSignal<Value, Failure>] {
    var signals: [Character: RecordedSignal<Value, Failure>] = [:]
    for key in inner.keys.sorted() {
      do {
        signals[key] = RecordedSignal(
          events: try parse(
            inner[key]!, values: values, error: error, tick: tick, allowsSubscriptionPoint: false,
            position: .start))
      } catch {
        throw MarbleSyntaxError(
          message: "in the inner marble of `\(key)`: \(error.message)", line: error.line,
          column: error.column, sourceLine: error.sourceLine)
      }
    }
    return signals
  }
}
