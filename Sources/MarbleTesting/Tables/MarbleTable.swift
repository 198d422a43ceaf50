/// An expectation table: one scenario drawn as rows of marbles on one shared time axis.
///
/// ```
/// // seed 004: six bindings, one request
/// fetch   cold  ---r|
/// sub1    sub   ^---------
/// sub1    gets  ---r|
/// sub2    sub   -----^----
/// sub2    gets  -----(r|)
/// fetch   subs  ^---!
/// ```
///
/// Each row is `label kind marble`, separated by spaces:
///
/// | kind   | the row says                                                                   |
/// |--------|--------------------------------------------------------------------------------|
/// | `hot`  | a hot source named `label` and what it sends                                   |
/// | `send` | a subject named `label` and what is sent to it (the same as `hot`)             |
/// | `cold` | a cold source named `label` and what each subscription to it gets             |
/// | `sub`  | subscriber `label` subscribes at `^` (and disposes at `!`) to the signal under test |
/// | `gets` | what subscriber `label` must receive                                           |
/// | `subs` | one subscription source `label` must have seen (one row per subscription, in order) |
///
/// Every row's marble starts in the same column — frame 0 of the table's time axis — so the
/// picture reads top to bottom as one timeline: a row whose marble starts elsewhere is an error
/// (pad with `-`, not spaces), and a hot row may not move frame 0 with `^`. A subscriber with
/// `gets` but no `sub` row subscribes at frame 0 and stays. Blank lines and `//` comments are
/// ignored (`#` is the error marble, so it cannot start a comment). The marbles themselves are the
/// RxJS dialect of ``Marble``.
public struct MarbleTable: Sendable, Equatable {
  /// What a row declares.
  public enum Kind: String, Sendable, Equatable, CaseIterable {
    /// A hot source.
    case hot
    /// A subject fed directly from the row: what it is sent, at these frames (a hot source by
    /// another name, for scenarios about subjects).
    case send
    /// A cold source.
    case cold
    /// When a subscriber subscribes to (and disposes from) the signal under test.
    case sub
    /// What a subscriber must receive.
    case gets
    /// A subscription a source must have seen.
    case subs

    /// The kind a row names in its second column (`hot`, `send`, `cold`, `sub`, `gets`, `subs`), or
    /// `nil` for any other word.
    public init?(rawValue: String) {
      guard let kind = Self.allCases.first(where: { "\($0)" == rawValue }) else { return nil }
      self = kind
    }
  }

  /// One row of the table.
  public struct Row: Sendable, Equatable {
    /// The source or subscriber the row is about.
    public var label: String
    /// What the row declares.
    public var kind: Kind
    /// The marble, from the time-axis column to the end of the line, trailing spaces removed.
    public var marble: String
    /// The row's 1-based line in the table text.
    public var line: Int
    /// The 1-based column where the marble starts (the time axis).
    public var marbleColumn: Int
    /// The whole line.
    public var sourceLine: String
  }

  /// The rows, in the order written.
  public var rows: [Row]
  /// The 1-based column of frame 0, shared by every row.
  public var timeAxisColumn: Int

  /// Reads a table's rows.
  ///
  /// - Parameters:
  ///   - text: The table.
  ///   - firstLine: The line number of the text's first line, for error positions inside a larger
  ///     file (a fixture).
  /// - Returns: The table.
  /// - Throws: ``MarbleSyntaxError`` at the offending line and column: an unknown kind (naming the
  ///   kinds), a row without a marble, a marble off the time axis, a table with no rows.
  public static func parse(_ text: String, firstLine: Int = 1) throws(MarbleSyntaxError)
    -> MarbleTable
  {
    let (table, errors) = read(text, firstLine: firstLine)
    if let first = errors.first { throw first }
    // `read` gives a table whenever it finds no mistake.
    return table!
  }

  /// Reads a table's rows, finding every mistake rather than stopping at the first.
  ///
  /// - Parameters:
  ///   - text: The table.
  ///   - firstLine: The line number of the text's first line.
  /// - Returns: The rows that could be read (`nil` if none could), and every mistake, in order.
  ///   With a mistake the table is incomplete: check its marbles for more, never run it.
  package static func read(_ text: String, firstLine: Int = 1) -> (
    MarbleTable?, [MarbleSyntaxError]
  ) {
    var rows: [Row] = []
    var errors: [MarbleSyntaxError] = []
    var axis: Int?
    for (offset, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let sourceLine = String(rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine)
      let lineNumber = firstLine + offset
      let fields = Self.fields(of: sourceLine)
      guard let first = fields.first, !first.text.hasPrefix("//") else { continue }
      func error(_ message: String, at column: Int) -> MarbleSyntaxError {
        MarbleSyntaxError(
          message: message, line: lineNumber, column: column, sourceLine: sourceLine)
      }
      guard fields.count >= 2 else {
        errors.append(
          error("a row needs a label, a kind (\(Self.kindList)) and a marble", at: first.column))
        continue
      }
      guard let kind = Kind(rawValue: fields[1].text) else {
        errors.append(
          error(
            "unknown row kind '\(fields[1].text)'; a row's kind is one of \(Self.kindList)",
            at: fields[1].column))
        continue
      }
      guard fields.count >= 3 else {
        errors.append(
          error(
            "the \(kind) row '\(first.text)' has no marble",
            at: fields[1].column + fields[1].text.count))
        continue
      }
      let marbleColumn = fields[2].column
      if let axis, axis != marbleColumn {
        errors.append(
          error(
            "this marble starts at column \(marbleColumn), but the table's time axis (frame 0) "
              + "is column \(axis); align every marble on it, padding with '-' rather than spaces",
            at: marbleColumn))
        continue
      }
      axis = marbleColumn
      let marble = String(sourceLine.dropFirst(marbleColumn - 1))
        .replacing(/\s+$/, with: "")
      if kind == .hot || kind == .send, let caret = marble.firstIndex(of: "^") {
        errors.append(
          error(
            "a hot row in a table cannot move frame 0 with '^': frame 0 is the time-axis column "
              + "shared by every row",
            at: marbleColumn + marble.distance(from: marble.startIndex, to: caret)))
        continue
      }
      rows.append(
        Row(
          label: first.text, kind: kind, marble: marble, line: lineNumber,
          marbleColumn: marbleColumn, sourceLine: sourceLine))
    }
    guard let axis else {
      if errors.isEmpty {
        errors.append(
          MarbleSyntaxError(
            message: "the table has no rows", line: firstLine, column: 1, sourceLine: ""))
      }
      return (nil, errors)
    }
    return (MarbleTable(rows: rows, timeAxisColumn: axis), errors)
  }

  /// Every marble that cannot be read, at its row and column: event rows parsed with `values`
  /// (and `error` for `#`; `nil` makes a `#` a mistake), `sub` and `subs` rows as subscriptions.
  ///
  /// - Parameters:
  ///   - values: What the value characters stand for.
  ///   - error: What `#` stands for; `nil` if the sources cannot fail.
  ///   - tick: The length of one frame.
  /// - Returns: The mistakes, in row order.
  package func marbleErrors<Value, Failure: Error>(
    values: [Character: Value], error: Failure?, tick: Duration
  ) -> [MarbleSyntaxError] {
    var errors: [MarbleSyntaxError] = []
    for row in rows {
      do throws(MarbleSyntaxError) {
        switch row.kind {
        case .hot, .send, .cold, .gets:
          _ = try row.events(values: values, error: error, tick: tick)
        case .sub, .subs:
          _ = try row.subscription(tick: tick)
        }
      } catch {
        errors.append(error)
      }
    }
    return errors
  }

  private static let kindList = Kind.allCases.map(\.rawValue).joined(separator: ", ")

  /// The space-separated fields of a line, with their 1-based columns; the third field onwards is
  /// the marble (which may itself contain spaces), so only its start is reported separately.
  private static func fields(of line: String) -> [(text: String, column: Int)] {
    var fields: [(text: String, column: Int)] = []
    var current = ""
    var start = 0
    for (index, character) in line.enumerated() {
      if fields.count == 2 {
        // Everything from here is the marble.
        if current.isEmpty && character.isWhitespace { continue }
        if current.isEmpty { start = index + 1 }
        current.append(character)
        continue
      }
      if character.isWhitespace {
        if !current.isEmpty {
          fields.append((current, start))
          current = ""
        }
      } else {
        if current.isEmpty { start = index + 1 }
        current.append(character)
      }
    }
    if !current.isEmpty { fields.append((current, start)) }
    return fields
  }
}
