@_spi(Internals) import Signals

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes recorded marbles into a source file: finds the call an assertion made (by the line and
/// column the compiler gave it), the literal it names, and rewrites only that literal.
///
/// Writes to one file are serialized — a lock per file in this process, and `flock` against
/// other processes — and each write reads the file anew, so several rewrites of one file, also
/// from tests running in parallel, all land. The line and column a call was compiled at are
/// mapped through the edits already made to the file in this process (a rewrite before a call
/// on its line, a table that gained a row above it), so a later call is still found.
package enum SourceRecorder {
  /// What to rewrite at a call.
  package enum Target: Sendable {
    /// Argument `index` of the call (`assertMarbles(recorder, "…")`: 1).
    case argument(Int)
    /// The unlabelled arguments from `index` on, one marble each (`assertSubscriptions`).
    case arguments(from: Int)
    /// The first argument of the `.toBe(…)` chained after the call (`expect(…).toBe("…")`).
    case toBe
    /// The unlabelled arguments of the `.toBe(…)` chained after the call
    /// (`expectSubscriptions(…).toBe("…", "…")`).
    case toBeArguments
    /// The rows of the table literal that is the call's first argument.
    case table([LiteralRewrite.TableRecord])
  }

  /// Records `marbles` (one per marble argument; none for a table) at the call at `line`:`column`
  /// of the file at `path`.
  ///
  /// - Parameters:
  ///   - marbles: The marbles to write.
  ///   - target: Which literal(s) of the call.
  ///   - onlyIfEmpty: Whether to write only into empty literals (`MARBLES_RECORD=missing`).
  ///   - path: The source file.
  ///   - line: The call's line, as compiled.
  ///   - column: The call's column, as compiled.
  /// - Returns: Whether anything was written.
  /// - Throws: Why the call's literal cannot be rewritten.
  package static func record(
    _ marbles: [String], at target: Target, onlyIfEmpty: Bool,
    path: String, line: Int, column: Int
  ) throws(LiteralRewrite.Refusal) -> Bool {
    try files.withLock { files -> Result<Bool, LiteralRewrite.Refusal> in
      var log = files[path] ?? EditLog()
      let written = Result { () throws(LiteralRewrite.Refusal) -> Bool in
        try withFileLock(path) { () throws(LiteralRewrite.Refusal) -> Bool in
          let source = try readFile(path)
          let current = log.map(line: line, column: column)
          let scanner = SwiftCallScanner(String(decoding: source, as: UTF8.self))
          guard let start = scanner.offset(line: current.line, column: current.column) else {
            throw LiteralRewrite.Refusal("the call at \(path):\(line) is no longer where it was")
          }
          let edits = try self.edits(
            marbles, at: target, onlyIfEmpty: onlyIfEmpty, scanner: scanner, callStart: start)
          guard !edits.isEmpty else { return false }
          try writeFile(LiteralRewrite.apply(edits, to: source), to: path)
          log.note(edits, in: scanner)
          return true
        }
      }
      files[path] = log
      return written
    }.get()
  }

  /// The edits that record `marbles` at the call starting at `callStart`.
  package static func edits(
    _ marbles: [String], at target: Target, onlyIfEmpty: Bool, scanner: SwiftCallScanner,
    callStart: Int
  ) throws(LiteralRewrite.Refusal) -> [LiteralRewrite.Edit] {
    guard let open = scanner.callParenthesis(from: callStart),
      let (arguments, end) = scanner.arguments(openingAt: open)
    else { throw LiteralRewrite.Refusal("its call could not be read") }
    var marbleArguments: [SwiftCallScanner.Argument]
    switch target {
    case .argument(let index):
      guard index < arguments.count else {
        throw LiteralRewrite.Refusal("its call could not be read")
      }
      marbleArguments = [arguments[index]]
    case .arguments(let index):
      marbleArguments = Array(arguments.dropFirst(index).prefix { $0.label == nil })
    case .toBe, .toBeArguments:
      guard let toBe = scanner.chainedCall("toBe", after: end),
        let (toBeArguments, _) = scanner.arguments(openingAt: toBe)
      else {
        throw LiteralRewrite.Refusal("no .toBe(…) follows its expect(…)")
      }
      let unlabelled = toBeArguments.prefix { $0.label == nil }
      marbleArguments =
        if case .toBe = target { Array(unlabelled.prefix(1)) } else { Array(unlabelled) }
    case .table(let records):
      guard let first = arguments.first, let literal = first.literal else {
        throw LiteralRewrite.Refusal("the marble is not a string literal")
      }
      guard !onlyIfEmpty else { return [] }
      return try tableEdits(records, literal: literal, scanner: scanner)
    }
    let literals = try marbleArguments.map { argument throws(LiteralRewrite.Refusal) in
      guard let literal = argument.literal, !literal.isInterpolated else {
        throw LiteralRewrite.Refusal("the marble is not a string literal")
      }
      return literal
    }
    guard !literals.isEmpty else { throw LiteralRewrite.Refusal("its call has no marble argument") }
    if onlyIfEmpty, !literals.allSatisfy(LiteralRewrite.isEmpty) { return [] }
    if literals.count == marbles.count {
      return try zip(literals, marbles).map { literal, marble throws(LiteralRewrite.Refusal) in
        try LiteralRewrite.literal(literal, in: scanner, holding: marble)
      }
    }
    // A different number of marbles (subscriptions): the list of literals is written anew, in
    // the first one's delimiters.
    guard let first = literals.first, let last = literals.last, !first.isMultiline else {
      throw LiteralRewrite.Refusal("its marbles could not be rewritten")
    }
    let written = try marbles.map { marble throws(LiteralRewrite.Refusal) in
      try LiteralRewrite.literal(first, in: scanner, holding: marble).text
    }
    return [
      LiteralRewrite.Edit(
        range: first.range.lowerBound..<last.range.upperBound,
        text: written.joined(separator: ", "))
    ]
  }

  /// The edits that record `records` in the table literal `literal`.
  private static func tableEdits(
    _ records: [LiteralRewrite.TableRecord], literal: SwiftCallScanner.StringLiteral,
    scanner: SwiftCallScanner
  ) throws(LiteralRewrite.Refusal) -> [LiteralRewrite.Edit] {
    guard !literal.isInterpolated else {
      throw LiteralRewrite.Refusal("the marble is not a string literal")
    }
    let content = scanner.text[literal.contentRange]
    var firstLine = literal.contentRange.lowerBound
    var indent = 0
    var tableText = String(decoding: content, as: UTF8.self)
    if literal.isMultiline {
      // Content starts after the opening delimiter's line break; every line carries the
      // closing delimiter's indentation, which the program's text does not.
      guard let newline = content.firstIndex(of: UInt8(ascii: "\n")) else {
        throw LiteralRewrite.Refusal("its table literal could not be read")
      }
      firstLine = newline + 1
      let closing = literal.contentRange.upperBound
      indent = closing - scanner.lineStart(of: closing)
      let lines = String(decoding: scanner.text[firstLine..<closing], as: UTF8.self)
        .split(separator: "\n", omittingEmptySubsequences: false).dropLast()
      tableText = lines.map { String($0.dropFirst(indent)) }.joined(separator: "\n")
    }
    let table: MarbleTable
    do { table = try MarbleTable.parse(tableText) } catch {
      throw LiteralRewrite.Refusal("its table could not be read: \(error)")
    }
    return try LiteralRewrite.table(
      table, text: scanner.text, firstLine: firstLine, indent: indent, records: records)
  }

  // MARK: Files

  /// The edits made to each file in this process.
  private static let files = Locked<[String: EditLog]>([:])

  /// Runs `body` holding an exclusive `flock` on the file at `path`.
  private static func withFileLock<Result>(
    _ path: String, _ body: () throws(LiteralRewrite.Refusal) -> Result
  ) throws(LiteralRewrite.Refusal) -> Result {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw LiteralRewrite.Refusal("\(path) cannot be opened") }
    defer { close(descriptor) }
    flock(descriptor, LOCK_EX)
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  private static func readFile(_ path: String) throws(LiteralRewrite.Refusal) -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw LiteralRewrite.Refusal("\(path) cannot be read") }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return bytes
  }

  /// Writes `bytes` to `path` through a temporary file renamed over it, so that a reader never
  /// sees half a file.
  private static func writeFile(_ bytes: [UInt8], to path: String) throws(LiteralRewrite.Refusal) {
    let temporary = path + ".marbles-recording"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw LiteralRewrite.Refusal("\(temporary) cannot be written") }
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes {
        write(descriptor, $0.baseAddress, $0.count)
      }
      guard count > 0 else {
        close(descriptor)
        unlink(temporary)
        throw LiteralRewrite.Refusal("\(path) cannot be written")
      }
      written += count
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      unlink(temporary)
      throw LiteralRewrite.Refusal("\(path) cannot be replaced")
    }
  }
}

/// The edits made to one file, to find a call compiled at a line and column in the file as it
/// is now: each edit moves what comes after it (the rest of its last line, and the lines below).
struct EditLog: Sendable {
  /// One edit, in the coordinates of the file as it was when made: the replaced text's start and
  /// end, and where the new text ends.
  struct Shift: Sendable {
    var end: (line: Int, column: Int)
    var newEnd: (line: Int, column: Int)
  }

  private var shifts: [Shift] = []

  /// Where `line`:`column`, as compiled, is now.
  func map(line: Int, column: Int) -> (line: Int, column: Int) {
    var position = (line: line, column: column)
    for shift in shifts {
      if position.line == shift.end.line, position.column >= shift.end.column {
        position = (shift.newEnd.line, shift.newEnd.column + position.column - shift.end.column)
      } else if position.line > shift.end.line {
        position.line += shift.newEnd.line - shift.end.line
      }
    }
    return position
  }

  /// Notes `edits`, made to the text `scanner` read.
  mutating func note(_ edits: [LiteralRewrite.Edit], in scanner: SwiftCallScanner) {
    // NB: later edits first, so each is noted in the coordinates the earlier ones still have.
    for edit in edits.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
      let endLine = scanner.line(of: edit.range.upperBound)
      let endColumn = edit.range.upperBound - scanner.lineStart(of: edit.range.upperBound) + 1
      let startLine = scanner.line(of: edit.range.lowerBound)
      let startColumn = edit.range.lowerBound - scanner.lineStart(of: edit.range.lowerBound) + 1
      let newLines = edit.text.utf8.split(
        separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      let newEnd =
        newLines.count == 1
        ? (startLine, startColumn + edit.text.utf8.count)
        : (startLine + newLines.count - 1, newLines.last!.count + 1)
      shifts.append(Shift(end: (endLine, endColumn), newEnd: newEnd))
    }
  }
}
