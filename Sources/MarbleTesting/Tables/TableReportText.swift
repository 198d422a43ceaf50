@_spi(Internals) import Signals

// How a table's report is written: the table drawn from what happened, where frames fall in a
// marble's text, and the sentences that name each difference.

extension MarbleTable {
  /// The table with `gets` and `subs` rows drawn from what happened; a subscriber with a `sub` row
  /// but no `gets` row gets one.
  func actualTable<Value: Equatable & Sendable, Failure: Error & Equatable>(
    subscribers: [String: TestSubscriber<Value, Failure>],
    sources: [String: TestSignal<Value, Failure>], values: [Character: Value], tick: Duration
  ) -> String {
    let attoseconds = MarbleTime.tickAttoseconds(tick)
    /// A subscriber's events drawn on the axis; with no terminal event, the timeline runs on with
    /// `-` to the length of the row it stands for, so an empty or open-ended result still reads as
    /// a timeline.
    func events(_ subscriber: TestSubscriber<Value, Failure>, alongside row: Row) -> String {
      let diagram = FailureMessage.diagram(subscriber.events, values: values, tick: tick)
      var drawn = diagram.marbles
      if subscriber.events.last?.value.isTerminal != true {
        drawn += String(repeating: "-", count: max(0, row.marble.count - drawn.count))
      }
      return drawn + Self.legendSuffix(diagram.legend)
    }
    func line(_ row: Row, kind: Kind, _ drawn: String) -> String {
      let lead = Array(row.sourceLine.prefix(timeAxisColumn - 1))
      guard kind != row.kind else { return String(lead) + drawn }
      // Swap the kind field, keeping the marble on the time axis.
      var index = 0
      while index < lead.count, lead[index].isWhitespace { index += 1 }
      while index < lead.count, !lead[index].isWhitespace { index += 1 }
      while index < lead.count, lead[index].isWhitespace { index += 1 }
      var head = String(lead[..<index]) + kind.rawValue
      head += String(repeating: " ", count: max(1, timeAxisColumn - 1 - head.count))
      return head + drawn
    }
    var lines: [String] = []
    var drawnSubs: Set<String> = []
    let labelsWithGets = Set(rows.filter { $0.kind == .gets }.map(\.label))
    for row in rows {
      switch row.kind {
      case .hot, .send, .cold:
        lines.append(row.sourceLine)
      case .sub:
        lines.append(row.sourceLine)
        if !labelsWithGets.contains(row.label), let subscriber = subscribers[row.label] {
          lines.append(line(row, kind: .gets, events(subscriber, alongside: row)))
        }
      case .gets:
        guard let subscriber = subscribers[row.label] else { continue }
        lines.append(line(row, kind: .gets, events(subscriber, alongside: row)))
      case .subs:
        guard !drawnSubs.contains(row.label), let source = sources[row.label] else { continue }
        drawnSubs.insert(row.label)
        for subscription in source.subscriptions {
          lines.append(
            line(
              row, kind: .subs,
              MarblePrinter.subscriptionDiagram(
                subscription, tick: attoseconds, longestDashRun: .max)))
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `  where b = "a1"` after a drawn row whose letters stand for values no key of `values:`
  /// names; nothing when there are none.
  static func legendSuffix(_ legend: [String]) -> String {
    legend.isEmpty ? "" : "  where " + legend.joined(separator: ", ")
  }

  /// The first frame at which two subscription logs differ: where the first differing
  /// subscription starts or ends, or where the extra one starts.
  static func firstDifferingFrame(_ expected: [Subscription], _ actual: [Subscription]) -> Int {
    let index = firstDifference(expected, actual)
    switch (
      index < expected.count ? expected[index] : nil, index < actual.count ? actual[index] : nil
    ) {
    case (let wanted?, let got?) where wanted.subscribed != got.subscribed:
      return min(wanted.subscribed, got.subscribed)
    case (let wanted?, let got?):
      return [wanted.disposed, got.disposed].compactMap { $0 }.min() ?? wanted.subscribed
    case (let only?, nil), (nil, let only?):
      return only.subscribed
    case (nil, nil):
      return 0
    }
  }
}

/// Where frames fall in a marble's text, read by the scanner's own rules: a `-`, a value, `|`, `#`,
/// `^` or `!` is one frame and one column; a `(…)` group is as many frames as columns; a `[…]`
/// group is one frame; spaces take a column and no frame; a time progression takes its columns
/// and lasts its duration in ticks of `tick` (a frame inside one maps to the progression's start).
enum MarbleColumns {
  /// The column of frame `target` in `marble`, whose frames last `tick` attoseconds; past the
  /// marble's end, one column per frame more.
  static func column(ofFrame target: Int, in marble: String, tick: Int128) -> Int {
    let text = MarbleCharacters(marble)
    var frame = 0
    var bracketStart: Int?
    var index = 0
    while index < text.count {
      let character = text[index]
      if text.isWhitespace(at: index) {
        index += 1
        continue
      }
      let isWordStart = MarbleScanner.isWordStart(text, index)
      if text.digit(at: index) != nil, isWordStart,
        case .timeProgression(let length, let attoseconds) = MarbleScanner.timeProgression(
          text, at: index)
      {
        let ticks = attoseconds.flatMap { MarbleTime.ticks(attoseconds: $0, tick: tick) } ?? .max
        if frame >= target || target - frame < ticks { return index }
        frame += ticks
        index += length
        continue
      }
      switch character {
      case "[":
        if frame >= target { return index }
        bracketStart = frame
      case "]":
        frame = (bracketStart ?? frame) + 1
        bracketStart = nil
      default:
        if bracketStart == nil {
          if frame >= target { return index }
          frame += 1
        }
      }
      index += 1
    }
    return text.count + max(0, target - frame)
  }
}

/// Names events by their marble symbols in the sentences of a report.
struct Legend<Value: Equatable, Failure: Error> {
  let values: [Character: Value]

  func symbol(_ event: Event<Value, Failure>) -> String {
    switch event {
    case .next(let value):
      if let key = values.keys.sorted().first(where: { values[$0] == value }) { return "`\(key)`" }
      return "`\(value)`"
    case .error: return "the error `#`"
    case .completed: return "completion `|`"
    }
  }

  func sentence(_ label: String, _ diff: EventListDiff<Value, Failure>) -> String
  where Value: Sendable, Failure: Equatable {
    switch diff.kind {
    case .different(.error(let expected), .error(let actual)):
      // Both are drawn `#`: the errors themselves say how they differ.
      var (expectedText, actualText) = ("\(expected)", "\(actual)")
      if expectedText == actualText {
        (expectedText, actualText) = (String(reflecting: expected), String(reflecting: actual))
      }
      return "\(label) got a different error `#` at frame \(diff.tick):\n"
        + "  expected  \(expectedText)\n  actual    \(actualText)"
    case .different(let expected, let actual):
      return "\(label) got \(symbol(actual)) at frame \(diff.tick) instead of \(symbol(expected))"
    case .missing(let expected, let cameAt):
      return "\(label) missed \(symbol(expected)) at frame \(diff.tick)"
        + (cameAt.map { " (it came at frame \($0))" } ?? "")
    case .unexpected(let actual, let expectedAt):
      return "\(label) got unexpected \(symbol(actual)) at frame \(diff.tick)"
        + (expectedAt.map { " (expected at frame \($0))" } ?? "")
    }
  }
}
