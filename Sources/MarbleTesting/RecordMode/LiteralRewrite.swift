/// The text edits that record marbles into Swift source: new string literals for marble
/// arguments, and new marbles for the rows of a table literal. Pure: text in, edits out; the
/// file is touched elsewhere (``SourceRecorder``).
package enum LiteralRewrite {
  /// One replacement: the bytes of `range` become `text`.
  package struct Edit: Sendable, Equatable {
    package var range: Range<Int>
    package var text: String
  }

  /// Why a literal cannot take a marble.
  package struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
  }

  /// The literal `literal` rewritten to hold `marble`, in the same delimiters (`"…"`, `#"…"#`,
  /// or a multi-line `"""` literal, whose closing delimiter's indentation it keeps).
  package static func literal(
    _ literal: SwiftCallScanner.StringLiteral, in scanner: SwiftCallScanner, holding marble: String
  ) throws(Refusal) -> Edit {
    let pounds = String(repeating: "#", count: literal.pounds)
    let content = try escaped(marble, pounds: literal.pounds)
    guard literal.isMultiline else {
      return Edit(range: literal.range, text: pounds + "\"" + content + "\"" + pounds)
    }
    // The closing delimiter's indentation is the literal's: every content line carries it.
    let closing = literal.contentRange.upperBound
    let indent = String(
      decoding: scanner.text[scanner.lineStart(of: closing)..<closing], as: UTF8.self)
    return Edit(
      range: literal.range,
      text: pounds + "\"\"\"\n" + indent + content + "\n" + indent + "\"\"\"" + pounds)
  }

  /// `marble` as the content of a literal with `pounds` `#`s.
  private static func escaped(_ marble: String, pounds: Int) throws(Refusal) -> String {
    guard pounds > 0 else {
      return marble.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }
    let closer = "\"" + String(repeating: "#", count: pounds)
    let escape = "\\" + String(repeating: "#", count: pounds)
    guard !marble.contains(closer), !marble.contains(escape) else {
      throw Refusal("the marble \(marble) cannot be written inside its #\"…\"# literal")
    }
    return marble
  }

  /// Whether a literal holds the empty string.
  package static func isEmpty(_ literal: SwiftCallScanner.StringLiteral) -> Bool {
    literal.contentRange.isEmpty
      || (literal.isMultiline && literal.contentRange.count <= 1)
  }

  // MARK: Tables

  /// A row of a table to record: the marble part of row `line` (1-based in the table text)
  /// becomes `marble`; or, for the `subs` rows of one source, all of them together become one
  /// row per subscription.
  package enum TableRecord: Sendable, Equatable {
    /// A `gets` row's new marble.
    case row(line: Int, marble: String)
    /// The `subs` rows of a source: their lines in the table text (in order; none if the table
    /// has none), and the marble of each actual subscription.
    case subscriptions(label: String, lines: [Int], marbles: [String])
  }

  /// The edits that record `records` in a table whose text is `table` (as the program sees it)
  /// and whose first line starts at byte `firstLine` of the source text, every line indented by
  /// `indent` bytes more than in `table`.
  ///
  /// A `subs` row is rewritten in place; more subscriptions than rows add rows under the last
  /// one (aligned like it), fewer remove the rows left over. With `onlyPlaceholders`
  /// (`MARBLES_RECORD=missing`), only placeholder rows are written — a `gets` row that holds
  /// ``getsPlaceholder``, the `subs` rows of a source that hold ``subsPlaceholder`` — and every
  /// row with a marble of its own stays.
  package static func table(
    _ table: MarbleTable, text: [UInt8], firstLine: Int, indent: Int, records: [TableRecord],
    onlyPlaceholders: Bool = false
  ) throws(Refusal) -> [Edit] {
    // Where each table line starts in the source, and where it ends.
    var lineStarts: [Int] = []
    var cursor = firstLine
    let lineCount = table.rows.map(\.line).max() ?? 0
    while lineStarts.count < lineCount, cursor <= text.count {
      lineStarts.append(cursor)
      cursor = (text[cursor...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count) + 1
    }
    func lineEnd(_ start: Int) -> Int {
      text[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
    }
    func marbleRange(_ row: MarbleTable.Row) throws(Refusal) -> Range<Int> {
      guard row.line - 1 < lineStarts.count else {
        throw Refusal("the table's row at line \(row.line) is not where its literal is")
      }
      let start = lineStarts[row.line - 1]
      let end = lineEnd(start)
      // The table counts columns in characters; the edit is in bytes.
      let line = String(decoding: text[min(start + indent, end)..<end], as: UTF8.self)
      guard
        let column = line.index(
          line.startIndex, offsetBy: row.marbleColumn - 1, limitedBy: line.endIndex)
      else {
        throw Refusal("the table's row at line \(row.line) is not where its literal is")
      }
      let marbleStart = start + indent + line.utf8.distance(from: line.startIndex, to: column)
      var marbleEnd = end
      while marbleEnd > marbleStart,
        text[marbleEnd - 1] == UInt8(ascii: " ") || text[marbleEnd - 1] == UInt8(ascii: "\t")
          || text[marbleEnd - 1] == UInt8(ascii: "\r")
      {
        marbleEnd -= 1
      }
      guard marbleStart <= marbleEnd else {
        throw Refusal("the table's row at line \(row.line) is not where its literal is")
      }
      return marbleStart..<marbleEnd
    }
    func holds(_ row: MarbleTable.Row, _ placeholder: String) throws(Refusal) -> Bool {
      String(decoding: text[try marbleRange(row)], as: UTF8.self) == placeholder
    }
    var edits: [Edit] = []
    for record in records {
      switch record {
      case .row(let line, let marble):
        guard let row = table.rows.first(where: { $0.line == line }) else { continue }
        if onlyPlaceholders, !(try holds(row, getsPlaceholder)) { continue }
        edits.append(Edit(range: try marbleRange(row), text: marble))
      case .subscriptions(let label, let lines, let marbles):
        let rows = lines.compactMap { line in table.rows.first { $0.line == line } }
        if onlyPlaceholders {
          var allPlaceholders = true
          for row in rows where !(try holds(row, subsPlaceholder)) { allPlaceholders = false }
          if !allPlaceholders { continue }
        }
        guard let last = rows.last else {
          throw Refusal(
            "\(label) has no subs row to record its subscriptions under; add one (`\(label) subs "
              + "-`) and record again")
        }
        for (row, marble) in zip(rows, marbles) {
          edits.append(Edit(range: try marbleRange(row), text: marble))
        }
        if marbles.count > rows.count {
          // New rows after the last one, with its prefix (label, kind, alignment).
          let range = try marbleRange(last)
          let prefix = String(
            decoding: text[lineStarts[last.line - 1]..<range.lowerBound], as: UTF8.self)
          let added = marbles[rows.count...].map { "\n" + prefix + $0 }.joined()
          edits.append(Edit(range: range.upperBound..<range.upperBound, text: added))
        } else if marbles.count < rows.count {
          for row in rows[marbles.count...] {
            // The whole line, with the line break before it.
            let start = lineStarts[row.line - 1]
            edits.append(Edit(range: (start - 1)..<lineEnd(start), text: ""))
          }
        }
      }
    }
    return edits
  }

  /// What a `gets` row holds until its marble is recorded (`out  gets  -`): one frame, nothing
  /// in it.
  package static let getsPlaceholder = "-"
  /// What a `subs` row holds until its subscriptions are recorded (`src  subs  ^`).
  package static let subsPlaceholder = "^"

  /// `text` with `edits` applied (which must not overlap).
  package static func apply(_ edits: [Edit], to text: [UInt8]) -> [UInt8] {
    var result = text
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      result.replaceSubrange(edit.range, with: Array(edit.text.utf8))
    }
    return result
  }
}
