/// What a marble diagram that cannot be read throws: what is wrong, and where.
///
/// The description quotes the offending line with a caret under the column, so a failing test
/// shows the mistake at a glance:
///
/// ```
/// line 1, column 5: a second '^'; a marble has at most one subscription point
///   --^-^--|
///       ^
/// ```
///
/// Lines and columns are 1-based, and a column counts `Character`s (so `é` or an emoji is one
/// column). A tab before the column is copied into the caret line, so the caret stays aligned.
public struct MarbleSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, in one sentence.
  public var message: String
  /// The 1-based line of the mistake: 1 for a single marble, or its line in a larger text.
  public var line: Int
  /// The 1-based column of the mistake in ``sourceLine``, counted in `Character`s.
  public var column: Int
  /// The whole line the mistake is on.
  public var sourceLine: String

  /// Creates a syntax error (for comparing against in tests).
  ///
  /// - Parameters:
  ///   - message: What is wrong.
  ///   - line: The 1-based line.
  ///   - column: The 1-based column in `sourceLine`, counted in `Character`s.
  ///   - sourceLine: The whole line the mistake is on.
  public init(message: String, line: Int, column: Int, sourceLine: String) {
    self.message = message
    self.line = line
    self.column = column
    self.sourceLine = sourceLine
  }

  /// `line L, column C: message`, then the source line and a caret under the column, both
  /// indented by two spaces.
  public var description: String {
    var caretLine = "  "
    for character in sourceLine.prefix(max(0, column - 1)) {
      caretLine.append(character == "\t" ? "\t" : " ")
    }
    // A column past the end of the line (an unclosed group reported at the end) still gets spaces.
    let missing = max(0, column - 1 - sourceLine.count)
    caretLine += String(repeating: " ", count: missing) + "^"
    return "line \(line), column \(column): \(message)\n  \(sourceLine)\n\(caretLine)"
  }
}
