/// Keeps failure messages short whatever the input: a window of the marbles around the first
/// difference, counts for the rest, and a hard cap on the whole text.
///
/// A failing assertion over 100,000 events must not print megabytes: the reader needs the first
/// difference and its neighbourhood, and how much more there is.
package enum MessageBounds {
  /// How many columns of a marble row are kept on each side of the first difference.
  package static let reach = 60
  /// How many events of a list are kept on each side of the first difference.
  package static let eventReach = 3
  /// How many entries of a legend, or rows of a list, are printed before a count of the rest.
  package static let listLimit = 12
  /// The longest a value's text may be in a legend or a sentence.
  package static let valueTextLimit = 120
  /// The most characters a whole message may have; longer ones lose their middle.
  package static let messageLimit = 6_000

  /// Cuts marble rows to a window around one frame, aligned so that the frame is in the same column
  /// of every row. Rows that all fit are returned as they are.
  ///
  /// - Parameters:
  ///   - rows: The rows' marbles.
  ///   - focus: Each row's column (0-based) of the frame to show.
  /// - Returns: The rows, cut with `…` where text was left out, and the focus column in them; `nil`
  ///   when nothing had to be cut.
  package static func clip(_ rows: [String], focus: [Int]) -> (rows: [String], column: Int)? {
    let characters = rows.map(Array.init)
    guard characters.contains(where: { $0.count > 2 * reach + 1 }) else { return nil }
    var clipped: [(text: String, column: Int)] = []
    for (row, column) in zip(characters, focus) {
      // Every row is cut at the same distance from its focus, so the focus lines up; a row that
      // ends before the window shows only the `…` of what was left out.
      let start = max(0, column - reach)
      let end = min(row.count, column + reach + 1)
      let lead = start > 0 ? "…" : ""
      let text = lead + (start < end ? String(row[start..<end]) : "") + (end < row.count ? "…" : "")
      clipped.append((text, lead.count + column - start))
    }
    let column = clipped.map(\.column).max() ?? 0
    return (
      clipped.map { String(repeating: " ", count: column - $0.column) + $0.text }, column
    )
  }

  /// `items` as a list of at most ``listLimit`` entries and a count of the rest.
  package static func list(_ items: [String], separator: String = ", ") -> String {
    guard items.count > listLimit else { return items.joined(separator: separator) }
    return items.prefix(listLimit).joined(separator: separator) + separator
      + "… and \(items.count - listLimit) more"
  }

  /// A legend line's entries, bounded: only those whose letter is in `visible` (when given), at
  /// most ``listLimit``.
  package static func legend(_ entries: [String], visible: String?) -> [String] {
    let shown = visible.map { Self.entries(entries, namedIn: $0) } ?? entries
    guard shown.count > listLimit else { return shown }
    return Array(shown.prefix(listLimit)) + ["… and \(shown.count - listLimit) more"]
  }

  /// The legend entries (`x = …`) whose letter is in `text`.
  package static func entries(_ entries: [String], namedIn text: String) -> [String] {
    let letters = Set(text)
    return entries.filter { entry in entry.first.map(letters.contains) ?? true }
  }

  /// `text`, cut to ``valueTextLimit`` characters with a count of the rest.
  package static func valueText(_ text: String) -> String {
    guard text.count > valueTextLimit else { return text }
    return String(text.prefix(valueTextLimit)) + "… (\(text.count) characters)"
  }

  /// `events` around index `index`, as `[…]` with counts for the events left out.
  package static func events<Element>(_ events: [Element], around index: Int) -> String {
    let start = max(0, index - eventReach)
    let end = min(events.count, index + eventReach + 1)
    guard start > 0 || end < events.count else {
      return "[" + events.map { valueText("\($0)") }.joined(separator: ", ") + "]"
    }
    var parts: [String] = []
    if start > 0 { parts.append("… \(start) earlier") }
    parts += events[start..<end].map { valueText("\($0)") }
    if end < events.count { parts.append("… \(events.count - end) later") }
    return "[" + parts.joined(separator: ", ") + "] (\(events.count) events)"
  }

  /// `message`, or — when it is longer than ``messageLimit`` — its beginning and end with a count
  /// of what was cut between them.
  package static func capped(_ message: String) -> String {
    guard message.count > messageLimit else { return message }
    let head = message.prefix(messageLimit * 2 / 3)
    let tail = message.suffix(messageLimit / 4)
    return head + "\n… (\(message.count - head.count - tail.count) characters cut) …\n" + tail
  }
}
