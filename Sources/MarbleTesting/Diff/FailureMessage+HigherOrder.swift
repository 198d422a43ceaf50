package import Signals

extension FailureMessage {
  /// The message for a higher-order signal whose inner signals differ from a marble of inner
  /// marbles, or `nil` when they match.
  ///
  /// When the outer events come at the expected frames but an inner signal sent something else,
  /// the message names that inner signal and draws its expected and actual rows under the frame it
  /// was sent at, frames counting from there:
  ///
  ///     inner signal `b` sent at frame 5 differs at its frame 1
  ///       outer     --a--b|
  ///       expected       --y|
  ///       actual         -y|
  ///                       ^ got unexpected next("y") at frame 1; it was expected at frame 2
  ///
  /// When the outer events differ, the outer rows are drawn with each inner signal as the key of
  /// the expected inner marble it matches, or a new letter, and a legend gives every marble:
  ///
  ///     marbles differ at frame 4
  ///       expected  --a-b-|
  ///       actual    --a--c|
  ///                     ^ expected next("b") at frame 4, got nothing; it never came
  ///       where a = -x|, b = --y|, c = -y|
  ///
  /// - Parameters:
  ///   - expectedMarble: The outer marble as written; each value character is a key of `inner`.
  ///   - inner: The marble of each inner signal, its frames counting from the frame it is sent at.
  ///   - actual: What the ``HigherOrderTestSubscriber`` recorded.
  ///   - values: What the inner marbles' value characters stand for.
  ///   - error: What `#` stands for, in the outer marble and the inner ones.
  ///   - tick: The length of one frame.
  /// - Returns: The message, or `nil`.
  /// - Throws: ``MarbleSyntaxError`` for a marble that cannot be read; one in an inner marble names
  ///   its key.
  package static func higherOrderMarbles<
    Value: Equatable & Sendable, Failure: Error & Equatable, Key: MarbleValueKey
  >(
    expectedMarble: String, inner: [Character: String],
    actual: [Recorded<Event<RecordedSignal<Value, Failure>, Failure>>],
    values: [Key: Value], error: Failure, tick: Duration = .milliseconds(1)
  ) throws(MarbleSyntaxError) -> String? {
    try higherOrderMarbles(
      expectedMarble: expectedMarble, inner: inner, actual: actual,
      values: try Marble.characterKeyed(values, for: expectedMarble),
      orError: error, tick: tick)
  }

  /// ``higherOrderMarbles(expectedMarble:inner:actual:values:error:tick:)`` where a `nil` `error`
  /// makes a `#` a mistake (for signals that cannot fail).
  package static func higherOrderMarbles<Value: Equatable & Sendable, Failure: Error & Equatable>(
    expectedMarble: String, inner: [Character: String],
    actual: [Recorded<Event<RecordedSignal<Value, Failure>, Failure>>],
    values: [Character: Value], orError error: Failure?, tick: Duration
  ) throws(MarbleSyntaxError) -> String? {
    let signals = try Marble.parseInner(inner, values: values, error: error, tick: tick)
    let keyed = try Marble.parseKeys(expectedMarble, inner: inner, error: error, tick: tick)
    let expected = keyed.map { Recorded(time: $0.time, value: $0.value.map { signals[$0]! }) }
    guard expected != actual else { return nil }

    // The outer events match but for an inner signal: show the first one that differs.
    if expected.count == actual.count,
      zip(expected, actual).allSatisfy({ $0.time == $1.time && sameKind($0.value, $1.value) }),
      let index = expected.indices.first(where: { expected[$0] != actual[$0] }),
      let key = keyed[index].value.value, let got = actual[index].value.value,
      let diff = EventListDiff(expected: signals[key]!.events, actual: got.events)
    {
      let sentAt = expected[index].time
      let drawn = marbleRows(
        expectedMarble: inner[key]!, actual: got.events, diff: diff, values: values, tick: tick,
        indent: MarbleColumns.column(
          ofFrame: sentAt, in: expectedMarble, tick: MarbleTime.tickAttoseconds(tick)))
      return
        ([
          "inner signal `\(key)` sent at frame \(sentAt) differs at its frame \(diff.tick)",
          "  outer     \(expectedMarble)",
        ] + drawn.rows + legendLine(drawn.legend) + oneFrameGroupNote(printed: [drawn.actualRow]))
        .joined(
          separator: "\n")
    }

    // The outer events differ: each actual inner signal is drawn as the key whose marble it
    // matches, or as a new letter listed in the legend.
    let keys = inner.keys.sorted()
    var matched = Set<Character>()
    var unmatched: [(signal: RecordedSignal<Value, Failure>, letter: Character)] = []
    let spare = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ").filter {
      inner[$0] == nil
    }
    let symbols: [Recorded<Event<String, Failure>>] = actual.map { recorded in
      Recorded(
        time: recorded.time,
        value: recorded.value.map { signal in
          if let key = keys.first(where: { signals[$0] == signal }) {
            matched.insert(key)
            return String(key)
          }
          if let known = unmatched.first(where: { $0.signal == signal }) {
            return String(known.letter)
          }
          let letter = unmatched.count < spare.count ? spare[unmatched.count] : "?"
          unmatched.append((signal, letter))
          return String(letter)
        })
    }
    let legend =
      keys.filter { expectedMarble.contains($0) || matched.contains($0) }.map {
        "\($0) = \(inner[$0]!)"
      }
      + unmatched.map { "\($0.letter) = \(diagram($0.signal.events, values: values, tick: tick))" }
    let expectedSymbols = keyed.map { Recorded(time: $0.time, value: $0.value.map(String.init)) }
    // Equal symbols would mean equal inner signals, and the lists differ: there is a difference.
    let diff = EventListDiff(expected: expectedSymbols, actual: symbols)!
    let selfNamed = Dictionary(
      uniqueKeysWithValues: (keys + unmatched.map(\.letter)).map { ($0, String($0)) })
    let drawn = marbleRows(
      expectedMarble: expectedMarble, actual: symbols, diff: diff, values: selfNamed, tick: tick,
      indent: 0)
    return
      (["marbles differ at frame \(diff.tick)"] + drawn.rows
      + legendLine(MessageBounds.legend(legend, visible: nil))).joined(separator: "\n")
  }

  /// Whether two events are of one kind: both values, or the same terminal event.
  private static func sameKind<Value, Failure: Error & Equatable>(
    _ left: Event<Value, Failure>, _ right: Event<Value, Failure>
  ) -> Bool {
    switch (left, right) {
    case (.next, .next), (.completed, .completed): true
    case (.error(let one), .error(let other)): one == other
    default: false
    }
  }
}
