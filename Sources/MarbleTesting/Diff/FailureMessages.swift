package import Signals

/// The full texts the `Marbles` assertions report, built here so that they can be tested without a
/// test framework.
package enum FailureMessage {
  /// The message for event lists that differ, or `nil` when they are equal.
  ///
  ///     recorded events differ at tick 4
  ///       expected  [next("a") @ 2, next("b") @ 4, completed @ 7]
  ///       actual    [next("a") @ 2, next("b") @ 5, completed @ 7]
  ///       expected next("b") at tick 4, got nothing; next("b") came at tick 5
  ///
  /// - Parameters:
  ///   - expected: What should have happened.
  ///   - actual: What happened.
  /// - Returns: The message, or `nil`.
  package static func events<Value: Equatable & Sendable, Failure: Error & Equatable>(
    expected: [Recorded<Event<Value, Failure>>], actual: [Recorded<Event<Value, Failure>>]
  ) -> String? {
    guard let diff = EventListDiff(expected: expected, actual: actual) else { return nil }
    let index = firstDifference(expected, actual)
    return """
      recorded events differ at tick \(diff.tick)
        expected  \(MessageBounds.events(expected, around: index))
        actual    \(MessageBounds.events(actual, around: index))
        \(diff.summary)
      """
  }

  /// The message for subscription logs that differ, or `nil` when they are equal.
  ///
  /// - Parameters:
  ///   - expected: The subscriptions that should have happened.
  ///   - actual: The subscriptions that happened.
  /// - Returns: The message, or `nil`.
  package static func subscriptions(expected: [Subscription], actual: [Subscription]) -> String? {
    guard let diff = SubscriptionListDiff(expected: expected, actual: actual) else { return nil }
    let index = firstDifference(expected, actual)
    return """
      subscriptions differ
        expected  \(MessageBounds.events(expected, around: index))
        actual    \(MessageBounds.events(actual, around: index))
        \(diff.summary)
      """
  }
}

extension FailureMessage {
  /// The message for a recorder whose events differ from a marble, or `nil` when they match.
  ///
  ///     marbles differ at frame 4
  ///       expected  --a-b--|
  ///       actual    --a--b-|
  ///                     ^ expected next("b") at frame 4, got nothing; next("b") came at frame 5
  ///
  /// The actual row is drawn with the expected marble's own characters wherever a value matches
  /// one of `values`; values that are not single characters are listed under a `where` legend.
  ///
  /// - Parameters:
  ///   - expectedMarble: The marble as written.
  ///   - expected: The marble's events.
  ///   - actual: The recorded events.
  ///   - values: What the marble's value characters stand for.
  ///   - tick: The length of one frame.
  /// - Returns: The message, or `nil`.
  package static func marbles<Value: Equatable & Sendable, Failure: Error & Equatable>(
    expectedMarble: String,
    expected: [Recorded<Event<Value, Failure>>], actual: [Recorded<Event<Value, Failure>>],
    values: [Character: Value], tick: Duration = .milliseconds(1)
  ) -> String? {
    guard let diff = EventListDiff(expected: expected, actual: actual) else { return nil }
    let drawn = marbleRows(
      expectedMarble: expectedMarble, actual: actual, diff: diff, values: values, tick: tick,
      indent: 0)
    var lines =
      ["marbles differ at frame \(diff.tick)"] + drawn.rows + legendLine(drawn.legend)
      + oneFrameGroupNote(printed: [drawn.actualRow])
    if drawn.isClipped {
      lines.append(
        "  (the rows are cut to the frames around frame \(diff.tick); expected has "
          + "\(expected.count) events, actual \(actual.count))")
    }
    return lines.joined(separator: "\n")
  }

  /// The rows of a marble failure — the expected marble over the actual events, both `indent`
  /// columns in, and a caret under the first difference with the difference in words — and the
  /// legend for the characters of both rows that do not stand for themselves.
  static func marbleRows<Value: Equatable & Sendable, Failure: Error & Equatable>(
    expectedMarble: String, actual: [Recorded<Event<Value, Failure>>],
    diff: EventListDiff<Value, Failure>, values: [Character: Value], tick: Duration, indent: Int
  ) -> (rows: [String], legend: [String], isClipped: Bool, actualRow: String) {
    let drawn = diagram(actual, values: values, tick: tick)
    let pad = String(repeating: " ", count: indent)
    // Spaces around a marble only align it in the source; both rows start at frame 0 here.
    let expectedMarble = expectedMarble.trimmingMarbleAlignment
    var expectedRow = expectedMarble
    var actualRow = drawn.marbles
    let attoseconds = MarbleTime.tickAttoseconds(tick)
    var column = MarbleColumns.column(ofFrame: diff.tick, in: expectedMarble, tick: attoseconds)
    // Long rows are cut to the frames around the difference, lined up under each other.
    let clipped = MessageBounds.clip(
      [expectedMarble, drawn.marbles],
      focus: [
        column, MarbleColumns.column(ofFrame: diff.tick, in: drawn.marbles, tick: attoseconds),
      ])
    if let clipped {
      (expectedRow, actualRow, column) = (clipped.rows[0], clipped.rows[1], clipped.column)
    }
    let rows = [
      "  expected  " + pad + expectedRow,
      "  actual    " + pad + actualRow,
      String(repeating: " ", count: 12 + indent + column) + "^ " + diff.summary(unit: "frame"),
    ]
    // A legend for the characters that do not stand for themselves: the keys the expected row
    // uses, and the letters the actual row was drawn with (only those shown, when cut).
    var legend: [String] = []
    let expectedCharacters = Set(expectedRow)
    for character in values.keys.sorted() where expectedCharacters.contains(character) {
      let value = values[character]!
      let text = "\(value)"
      if text != String(character) {
        legend.append("\(character) = \(text.isEmpty ? "\"\"" : MessageBounds.valueText(text))")
      }
    }
    legend +=
      clipped == nil ? drawn.legend : MessageBounds.entries(drawn.legend, namedIn: actualRow)
    return (rows, MessageBounds.legend(legend, visible: nil), clipped != nil, actualRow)
  }

  /// Recorded events drawn with the characters of `values` wherever a value matches one; any other
  /// value gets a letter that is not a key of `values`, named in the diagram's legend.
  static func diagram<Value: Equatable & Sendable, Failure: Error & Equatable>(
    _ events: [Recorded<Event<Value, Failure>>], values: [Character: Value], tick: Duration
  ) -> MarbleDiagram<Value, Failure> {
    let keys = values.keys.sorted()
    return MarblePrinter.diagram(
      events, tick: MarbleTime.tickAttoseconds(tick), longestDashRun: .max, isSame: { $0 == $1 },
      named: { value in keys.first { values[$0] == value } }, reserved: Set(keys))
  }

  /// The note that explains the printer's one-frame groups, when a marble it printed uses one:
  /// `[ab]` is not RxJS's notation, and a reader meets it first in a failure. Only the printed
  /// marbles are looked at — not a caret line or a legend, whose value texts may hold a `[`.
  static func oneFrameGroupNote(printed marbles: [some StringProtocol]) -> [String] {
    guard marbles.contains(where: { $0.contains("[") }) else { return [] }
    return [
      "  ([ab] means a and b came in one frame, one after the other; unlike (ab), the group takes "
        + "that one frame only)"
    ]
  }

  /// `  where a = 1, b = 2`, or nothing for an empty legend.
  static func legendLine(_ legend: [String]) -> [String] {
    legend.isEmpty ? [] : ["  where " + legend.joined(separator: ", ")]
  }

  /// The message for a subscription log that differs from subscription marbles, or `nil`.
  ///
  ///     subscriptions differ
  ///       expected  ^---!
  ///                 --^--!
  ///       actual    ^---!
  ///       expected 2 subscriptions, got 1; missing (2, 5)
  ///
  /// - Parameters:
  ///   - expectedMarbles: The subscription marbles as written.
  ///   - expected: Their subscriptions.
  ///   - actual: The subscriptions the signal saw.
  ///   - tick: The length of one frame.
  /// - Returns: The message, or `nil`.
  package static func subscriptionMarbles(
    expectedMarbles: [String], expected: [Subscription], actual: [Subscription],
    tick: Duration = .milliseconds(1)
  ) -> String? {
    guard let diff = SubscriptionListDiff(expected: expected, actual: actual) else { return nil }
    func rows(_ title: String, _ marbles: [String]) -> [String] {
      guard !marbles.isEmpty else { return ["  \(title)(none)"] }
      let pad = String(repeating: " ", count: title.count)
      var rows = marbles.prefix(MessageBounds.listLimit).enumerated().map { index, marble in
        "  " + (index == 0 ? title : pad) + MessageBounds.valueText(marble.trimmingMarbleAlignment)
      }
      if marbles.count > MessageBounds.listLimit {
        rows.append("  " + pad + "… and \(marbles.count - MessageBounds.listLimit) more")
      }
      return rows
    }
    let drawn = actual.map {
      MarblePrinter.subscriptionDiagram(
        $0, tick: MarbleTime.tickAttoseconds(tick), longestDashRun: .max)
    }
    return
      (["subscriptions differ"] + rows("expected  ", expectedMarbles)
      + rows("actual    ", drawn) + ["  " + diff.summary]).joined(separator: "\n")
  }
}

extension String {
  /// The marble without the spaces before and after it, which only align it in the source.
  var trimmingMarbleAlignment: String {
    var characters = Substring(self)
    while characters.first?.isMarbleWhitespace == true { characters.removeFirst() }
    while characters.last?.isMarbleWhitespace == true { characters.removeLast() }
    return String(characters)
  }
}
