@_spi(Internals) import Signals
import Synchronization

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
/// A literal is rewritten only when it holds exactly the expected text the failing assertion
/// compared; anything else means the file changed since it was compiled, and nothing is written.
///
/// Writes to one file are serialized by `flock` on the file's folder (which no rename replaces;
/// each write opens the folder anew, so threads of one process exclude each other as processes
/// do), and each write reads the file anew and replaces it through a temporary file of its own,
/// so several rewrites of one file, also from test processes running in parallel, all land. The
/// line and column a call was compiled at are mapped through the edits already made to the file
/// by every process of the same build (a rewrite before a call on its line, a table that gained
/// a row above it), which a journal in the temporary folder keeps (``EditLog``), so a later call
/// is still found — also when another process moved its lines. A symbolic link is followed: its
/// target is rewritten, keeping its mode, and the link stays a link.
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

  /// The folder a relative file path is taken from (the working directory when `nil`): lets a
  /// test record into scratch files in a temporary folder of its own.
  @TaskLocal package static var folder: String?

  /// Records `marbles` (one per marble argument; none for a table) at the call at `line`:`column`
  /// of the file at `path`, if the call's literals still hold `expected`.
  ///
  /// - Parameters:
  ///   - marbles: The marbles to write.
  ///   - expected: What the assertion compared: its marble literals' text, one per literal (for
  ///     a table, the table's whole text).
  ///   - target: Which literal(s) of the call.
  ///   - onlyIfEmpty: Whether to write only into empty literals and a table's placeholder rows
  ///     (`MARBLES_RECORD=missing`).
  ///   - path: The source file.
  ///   - line: The call's line, as compiled.
  ///   - column: The call's column, as compiled.
  /// - Returns: Whether anything was written.
  /// - Throws: Why the call's literal cannot be rewritten.
  package static func record(
    _ marbles: [String], replacing expected: [String], at target: Target, onlyIfEmpty: Bool,
    path: String, line: Int, column: Int
  ) throws(LiteralRewrite.Refusal) -> Bool {
    let file = try resolved(path)
    return try withFolderLock(file) { () throws(LiteralRewrite.Refusal) -> Bool in
      let source = try readFile(file)
      var log = EditLog.load(of: file, holding: source)
      let current = log.map(line: line, column: column)
      let scanner = SwiftCallScanner(String(decoding: source, as: UTF8.self))
      guard let start = scanner.offset(line: current.line, column: current.column) else {
        throw LiteralRewrite.Refusal(
          "\(path) changed since it was compiled: it has no line \(line), column \(column) "
            + "any more; nothing was written")
      }
      let edits = try self.edits(
        marbles, replacing: expected, at: target, onlyIfEmpty: onlyIfEmpty,
        scanner: scanner, callStart: start)
      guard !edits.isEmpty else { return false }
      let rewritten = LiteralRewrite.apply(edits, to: source)
      try writeFile(rewritten, to: file)
      log.note(edits, in: scanner)
      log.save(of: file, holding: rewritten)
      return true
    }
  }

  /// The edits that record `marbles` at the call starting at `callStart`, whose literals must
  /// hold `expected`.
  package static func edits(
    _ marbles: [String], replacing expected: [String], at target: Target, onlyIfEmpty: Bool,
    scanner: SwiftCallScanner, callStart: Int
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
      try check([literal], hold: expected, in: scanner)
      return try tableEdits(
        records, literal: literal, scanner: scanner, onlyPlaceholders: onlyIfEmpty)
    }
    let literals = try marbleArguments.map { argument throws(LiteralRewrite.Refusal) in
      guard let literal = argument.literal, !literal.isInterpolated else {
        throw LiteralRewrite.Refusal("the marble is not a string literal")
      }
      return literal
    }
    guard !literals.isEmpty else { throw LiteralRewrite.Refusal("its call has no marble argument") }
    try check(literals, hold: expected, in: scanner)
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

  /// Throws unless `literals` hold `expected`, one for one: the call found is the one that
  /// failed, unchanged since it was compiled.
  private static func check(
    _ literals: [SwiftCallScanner.StringLiteral], hold expected: [String],
    in scanner: SwiftCallScanner
  ) throws(LiteralRewrite.Refusal) {
    let found = literals.map { scanner.value(of: $0) }
    guard found != expected else { return }
    func shown(_ texts: [String?]) -> String {
      texts.map { $0.map { "\"\($0)\"" } ?? "a literal that cannot be read" }
        .joined(separator: ", ")
    }
    throw LiteralRewrite.Refusal(
      "the file changed since it was compiled: the call there holds \(shown(found)), not the "
        + "\(shown(expected)) its assertion compared; nothing was written (build and run again "
        + "to record)")
  }

  /// The edits that record `records` in the table literal `literal`.
  private static func tableEdits(
    _ records: [LiteralRewrite.TableRecord], literal: SwiftCallScanner.StringLiteral,
    scanner: SwiftCallScanner, onlyPlaceholders: Bool
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
    guard scanner.value(of: literal) == tableText else {
      throw LiteralRewrite.Refusal(
        "its table literal has escapes, which record mode does not rewrite")
    }
    let table: MarbleTable
    do { table = try MarbleTable.parse(tableText) } catch {
      throw LiteralRewrite.Refusal("its table could not be read: \(error)")
    }
    return try LiteralRewrite.table(
      table, text: scanner.text, firstLine: firstLine, indent: indent, records: records,
      onlyPlaceholders: onlyPlaceholders)
  }

  // MARK: Files

  /// `path` as an absolute path with every symbolic link resolved (a relative one taken from
  /// ``folder``, else the working directory).
  private static func resolved(_ path: String) throws(LiteralRewrite.Refusal) -> String {
    let absolute = path.hasPrefix("/") || folder == nil ? path : folder! + "/" + path
    guard let real = realpath(absolute, nil) else {
      throw LiteralRewrite.Refusal("\(path) cannot be found")
    }
    defer { free(real) }
    return String(cString: real)
  }

  /// The folder of the file at the absolute `path`.
  private static func folder(of path: String) -> String {
    let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))!
    return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
  }

  /// Runs `body` holding an exclusive `flock` on the folder of the file at `path`: the lock of
  /// every process that rewrites the file, taken on what no rename replaces.
  private static func withFolderLock<Result>(
    _ path: String, _ body: () throws(LiteralRewrite.Refusal) -> Result
  ) throws(LiteralRewrite.Refusal) -> Result {
    let descriptor = open(folder(of: path), O_RDONLY)
    guard descriptor >= 0 else {
      throw LiteralRewrite.Refusal("the folder of \(path) cannot be opened")
    }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 {
      guard errno == EINTR else { throw LiteralRewrite.Refusal("\(path) cannot be locked") }
    }
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }

  /// Numbers this process's temporary files.
  private static let temporaries = Atomic<Int>(0)

  private static func readFile(_ path: String) throws(LiteralRewrite.Refusal) -> [UInt8] {
    guard let bytes = contents(of: path) else {
      throw LiteralRewrite.Refusal("\(path) cannot be read")
    }
    return bytes
  }

  /// The bytes of the file at `path`, or `nil` if it cannot be opened.
  static func contents(of path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
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

  /// Writes all of `bytes` to `descriptor`; `false` if a write failed.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return false }
      written += count
    }
    return true
  }

  /// The FNV-1a hash of `bytes`, in hexadecimal.
  static func hash(_ bytes: some Sequence<UInt8>) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return String(hash, radix: 16)
  }

  /// Removes the temporary files of `path` (`.<name>.marbles-<pid>-<n>` beside it) whose
  /// process is gone — a recording process killed between writing one and renaming it — so that
  /// none stays in the user's sources for longer than the next recording into that file. Called
  /// under the folder's lock, which every recording process takes.
  private static func removeAbandonedTemporaries(of path: String) {
    let folder = folder(of: path)
    let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))!
    let prefix = "." + String(path[path.utf8.index(after: slash)...]) + ".marbles-"
    guard let directory = opendir(folder) else { return }
    defer { closedir(directory) }
    var abandoned: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard name.hasPrefix(prefix) else { continue }
      let rest = name.dropFirst(prefix.count)
      guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]),
        Int(rest[rest.index(after: dash)...]) != nil
      else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { abandoned.append(name) }
    }
    for name in abandoned { unlink(folder + "/" + name) }
  }

  /// Writes `bytes` to `path` through a temporary file of this write's own, given the file's mode
  /// and renamed over it, so that a reader never sees half a file.
  private static func writeFile(_ bytes: [UInt8], to path: String) throws(LiteralRewrite.Refusal) {
    var status = stat()
    guard stat(path, &status) == 0 else { throw LiteralRewrite.Refusal("\(path) cannot be read") }
    let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))!
    removeAbandonedTemporaries(of: path)
    let number = temporaries.add(1, ordering: .relaxed).newValue
    let temporary =
      folder(of: path) + "/." + String(path[path.utf8.index(after: slash)...])
      + ".marbles-\(getpid())-\(number)"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
    guard descriptor >= 0 else { throw LiteralRewrite.Refusal("\(temporary) cannot be written") }
    guard fchmod(descriptor, status.st_mode & 0o7777) == 0 else {
      close(descriptor)
      unlink(temporary)
      throw LiteralRewrite.Refusal("\(temporary) cannot be given the mode of \(path)")
    }
    guard writeAll(bytes, to: descriptor) else {
      close(descriptor)
      unlink(temporary)
      throw LiteralRewrite.Refusal("\(path) cannot be written")
    }
    // NB: on disk before it replaces the file: a crash after the rename must not leave the
    // user's source empty.
    guard fsync(descriptor) == 0 else {
      close(descriptor)
      unlink(temporary)
      throw LiteralRewrite.Refusal("\(temporary) cannot be written to disk")
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      unlink(temporary)
      throw LiteralRewrite.Refusal("\(path) cannot be replaced")
    }
  }
}
