/// Finds a call's arguments and their string literals in Swift source text, without a Swift
/// parser: a small lexer that knows just enough — comments (nested block comments too), string
/// literals (escapes, interpolation, `#"…"#` raw strings with any number of `#`, multi-line
/// `"""` literals) and brackets — to walk from the place a call starts to its argument list.
///
/// All positions are byte offsets into the source's UTF-8; lines and columns are 1-based, and a
/// column counts bytes, as the compiler's `#column` does.
package struct SwiftCallScanner: Sendable {
  /// The source, as UTF-8.
  package let text: [UInt8]

  package init(_ source: String) {
    text = Array(source.utf8)
  }

  // MARK: Positions

  /// The offset of `line`:`column`, if the text has it.
  package func offset(line: Int, column: Int) -> Int? {
    guard line >= 1, column >= 1 else { return nil }
    var current = 1
    var index = 0
    while current < line {
      guard let newline = text[index...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
      index = newline + 1
      current += 1
    }
    let end = text[index...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
    guard index + column - 1 <= end else { return nil }
    return index + column - 1
  }

  /// The 1-based line of `offset`.
  package func line(of offset: Int) -> Int {
    1 + text[..<offset].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
  }

  /// The offset where `offset`'s line starts.
  package func lineStart(of offset: Int) -> Int {
    (text[..<offset].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
  }

  // MARK: Tokens

  /// A string literal: where it is, how it is delimited, and whether it is plain text.
  package struct StringLiteral: Sendable, Equatable {
    /// The whole literal, delimiters included.
    package var range: Range<Int>
    /// Between the delimiters (for a multi-line literal, from the opening `"""`'s line break to
    /// the closing `"""`'s line start).
    package var contentRange: Range<Int>
    /// The number of `#` around it (0 for a plain `"…"`).
    package var pounds: Int
    /// Whether it is a multi-line `"""` literal.
    package var isMultiline: Bool
    /// Whether it interpolates a value (`\(…)`): then it is not a plain string literal.
    package var isInterpolated: Bool
  }

  /// The offset of the next byte after `index` that is not whitespace or inside a comment.
  package func skipTrivia(from index: Int) -> Int {
    var index = index
    while index < text.count {
      let byte = text[index]
      if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
        || byte == UInt8(ascii: "\r")
      {
        index += 1
      } else if byte == UInt8(ascii: "/"), index + 1 < text.count,
        text[index + 1] == UInt8(ascii: "/")
      {
        index = text[index...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
      } else if byte == UInt8(ascii: "/"), index + 1 < text.count,
        text[index + 1] == UInt8(ascii: "*")
      {
        index = blockCommentEnd(from: index)
      } else {
        break
      }
    }
    return index
  }

  /// The end of the block comment starting at `index` (they nest in Swift).
  private func blockCommentEnd(from index: Int) -> Int {
    var depth = 0
    var index = index
    while index + 1 < text.count {
      if text[index] == UInt8(ascii: "/"), text[index + 1] == UInt8(ascii: "*") {
        depth += 1
        index += 2
      } else if text[index] == UInt8(ascii: "*"), text[index + 1] == UInt8(ascii: "/") {
        depth -= 1
        index += 2
        if depth == 0 { return index }
      } else {
        index += 1
      }
    }
    return text.count
  }

  /// The string literal that starts at `index` (at its first `#` or `"`), if one does.
  package func stringLiteral(at index: Int) -> StringLiteral? {
    var start = index
    var pounds = 0
    while start < text.count, text[start] == UInt8(ascii: "#") {
      pounds += 1
      start += 1
    }
    guard start < text.count, text[start] == UInt8(ascii: "\"") else { return nil }
    let isMultiline =
      start + 2 < text.count && text[start + 1] == UInt8(ascii: "\"")
      && text[start + 2] == UInt8(ascii: "\"")
    let quotes = isMultiline ? 3 : 1
    var cursor = start + quotes
    var isInterpolated = false
    while cursor < text.count {
      let byte = text[cursor]
      if byte == UInt8(ascii: "\\"), hasPounds(pounds, at: cursor + 1) {
        // An escape; `\(` (with the literal's `#`s) interpolates.
        let after = cursor + 1 + pounds
        if after < text.count, text[after] == UInt8(ascii: "(") {
          isInterpolated = true
          cursor = matchingClose(of: after) ?? text.count
          continue
        }
        cursor = after + 1
        continue
      }
      if !isMultiline, byte == UInt8(ascii: "\n") { return nil }
      if byte == UInt8(ascii: "\""), hasQuotes(quotes, at: cursor),
        hasPounds(pounds, at: cursor + quotes)
      {
        let end = cursor + quotes + pounds
        let contentStart = start + quotes
        return StringLiteral(
          range: index..<end, contentRange: contentStart..<cursor, pounds: pounds,
          isMultiline: isMultiline, isInterpolated: isInterpolated)
      }
      cursor += 1
    }
    return nil
  }

  /// The string `literal` stands for, as the compiler reads it: a multi-line literal's
  /// indentation (its closing delimiter's) and its first and last line breaks removed, escapes
  /// (`\n`, `\t`, `\r`, `\0`, `\\`, `\"`, `\'`, `\u{…}`, with the literal's `#`s) and line
  /// continuations applied. `nil` for an interpolated literal or one this reader cannot decode.
  package func value(of literal: StringLiteral) -> String? {
    guard !literal.isInterpolated else { return nil }
    var content = Array(text[literal.contentRange])
    if literal.isMultiline {
      // The opening line holds only its line break; every content line carries the closing
      // delimiter's indentation, and the line break before the closing delimiter is not content.
      let closing = literal.contentRange.upperBound
      let indent = Array(text[lineStart(of: closing)..<closing])
      guard let firstBreak = content.firstIndex(of: UInt8(ascii: "\n")),
        content[..<firstBreak].allSatisfy(isSpace),
        let lastBreak = content.lastIndex(of: UInt8(ascii: "\n"))
      else { return nil }
      let lines = content[(firstBreak + 1)..<max(firstBreak + 1, lastBreak)]
        .split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      var stripped: [[UInt8]] = []
      for line in lines {
        if line.starts(with: indent) {
          stripped.append(Array(line.dropFirst(indent.count)))
        } else if line.allSatisfy(isSpace) {
          stripped.append([])
        } else {
          return nil
        }
      }
      content = firstBreak + 1 > lastBreak ? [] : Array(stripped.joined(separator: [0x0A]))
    }
    var bytes: [UInt8] = []
    var index = 0
    let escape = [UInt8(ascii: "\\")] + Array(repeating: UInt8(ascii: "#"), count: literal.pounds)
    while index < content.count {
      guard content[index...].starts(with: escape) else {
        bytes.append(content[index])
        index += 1
        continue
      }
      index += escape.count
      guard index < content.count else { return nil }
      let byte = content[index]
      index += 1
      switch byte {
      case UInt8(ascii: "n"): bytes.append(0x0A)
      case UInt8(ascii: "t"): bytes.append(0x09)
      case UInt8(ascii: "r"): bytes.append(0x0D)
      case UInt8(ascii: "0"): bytes.append(0)
      case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): bytes.append(byte)
      case UInt8(ascii: "\n") where literal.isMultiline: break  // a line continuation
      case UInt8(ascii: "u"):
        guard index < content.count, content[index] == UInt8(ascii: "{"),
          let close = content[index...].firstIndex(of: UInt8(ascii: "}")),
          let code = UInt32(
            String(decoding: content[(index + 1)..<close], as: UTF8.self), radix: 16),
          let scalar = Unicode.Scalar(code)
        else { return nil }
        bytes += Array(String(Character(scalar)).utf8)
        index = close + 1
      default: return nil
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private func hasPounds(_ count: Int, at index: Int) -> Bool {
    guard index + count <= text.count else { return false }
    return text[index..<index + count].allSatisfy { $0 == UInt8(ascii: "#") }
  }

  private func hasQuotes(_ count: Int, at index: Int) -> Bool {
    guard index + count <= text.count else { return false }
    return text[index..<index + count].allSatisfy { $0 == UInt8(ascii: "\"") }
  }

  /// Walks the code from `index` on, stepping over string literals and comments, and hands
  /// `visit` each other byte with its offset and the bracket depth after it (an opening bracket
  /// counts one more, a closing one one less), until `visit` returns `false`.
  private func walkCode(
    from index: Int, _ visit: (_ offset: Int, _ byte: UInt8, _ depth: Int) -> Bool
  ) {
    var depth = 0
    var cursor = index
    while cursor < text.count {
      let byte = text[cursor]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "#"),
        let literal = stringLiteral(at: cursor)
      {
        cursor = literal.range.upperBound
        continue
      }
      if byte == UInt8(ascii: "/") {
        let next = skipTrivia(from: cursor)
        if next > cursor {
          cursor = next
          continue
        }
      }
      switch byte {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      default: break
      }
      guard visit(cursor, byte, depth) else { return }
      cursor += 1
    }
  }

  /// The offset just past the bracket that closes the one at `index` (`(`, `[` or `{`), skipping
  /// comments and string literals.
  package func matchingClose(of index: Int) -> Int? {
    var close: Int?
    walkCode(from: index) { offset, _, depth in
      guard depth == 0 else { return true }
      close = offset + 1
      return false
    }
    return close
  }

  // MARK: Calls

  /// One argument of a call.
  package struct Argument: Sendable, Equatable {
    /// Its label, if it has one.
    package var label: String?
    /// Its value, trivia around it excluded.
    package var valueRange: Range<Int>
    /// The value, if it is exactly one string literal.
    package var literal: StringLiteral?
  }

  /// The arguments of the call whose `(` is at `open`, and the offset just past its `)`.
  package func arguments(openingAt open: Int) -> (arguments: [Argument], end: Int)? {
    guard open < text.count, text[open] == UInt8(ascii: "("), let end = matchingClose(of: open)
    else { return nil }
    var arguments: [Argument] = []
    var start = open + 1
    func finish(at stop: Int) {
      var valueStart = skipTrivia(from: start)
      guard valueStart < stop else { return }
      var label: String?
      if let (name, afterColon) = labelled(at: valueStart, before: stop) {
        label = name
        valueStart = skipTrivia(from: afterColon)
      }
      var valueEnd = stop
      while valueEnd > valueStart, isSpace(text[valueEnd - 1]) { valueEnd -= 1 }
      let literal = stringLiteral(at: valueStart).flatMap { literal in
        skipTrivia(from: literal.range.upperBound) >= valueEnd ? literal : nil
      }
      if let literal { valueEnd = literal.range.upperBound }
      arguments.append(Argument(label: label, valueRange: valueStart..<valueEnd, literal: literal))
    }
    walkCode(from: open + 1) { offset, byte, depth in
      if byte == UInt8(ascii: ","), depth == 0 {
        finish(at: offset)
        start = offset + 1
      }
      return offset < end - 1
    }
    finish(at: end - 1)
    return (arguments, end)
  }

  /// `name:` at `index` (an argument label), and the offset after the colon.
  private func labelled(at index: Int, before stop: Int) -> (String, Int)? {
    var cursor = index
    while cursor < stop, isIdentifierByte(text[cursor]) { cursor += 1 }
    guard cursor > index, !isDigit(text[index]) else { return nil }
    let colon = skipTrivia(from: cursor)
    guard colon < stop, text[colon] == UInt8(ascii: ":"),
      colon + 1 >= stop || text[colon + 1] != UInt8(ascii: ":")
    else { return nil }
    return (String(decoding: text[index..<cursor], as: UTF8.self), colon + 1)
  }

  /// The offset of the first `(` from `index` on, outside comments and string literals — the
  /// call that starts there.
  package func callParenthesis(from index: Int) -> Int? {
    var parenthesis: Int?
    walkCode(from: index) { offset, byte, _ in
      if byte == UInt8(ascii: "(") { parenthesis = offset }
      // A call never spans a `;` or a `}` before its `(`.
      return byte != UInt8(ascii: "(") && byte != UInt8(ascii: ";") && byte != UInt8(ascii: "}")
    }
    return parenthesis
  }

  /// After a call that ends at `index`: the `(` of a `.name(` chained right after it, skipping
  /// trivia (so `.toBe(` may be on a later line).
  package func chainedCall(_ name: String, after index: Int) -> Int? {
    let dot = skipTrivia(from: index)
    guard dot < text.count, text[dot] == UInt8(ascii: ".") else { return nil }
    let nameStart = skipTrivia(from: dot + 1)
    let bytes = Array(name.utf8)
    guard nameStart + bytes.count <= text.count,
      Array(text[nameStart..<nameStart + bytes.count]) == bytes
    else { return nil }
    let open = skipTrivia(from: nameStart + bytes.count)
    guard open < text.count, text[open] == UInt8(ascii: "(") else { return nil }
    return open
  }

  private func isSpace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
      || byte == UInt8(ascii: "\r")
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  private func isIdentifierByte(_ byte: UInt8) -> Bool {
    isDigit(byte) || byte == UInt8(ascii: "_") || (byte >= 0x41 && byte <= 0x5A)
      || (byte >= 0x61 && byte <= 0x7A) || byte >= 0x80
  }
}
