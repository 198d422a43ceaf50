#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The edits made to one file, to find a call compiled at a line and column in the file as it
/// is now: each edit moves what comes after it (the rest of its last line, and the lines below).
///
/// Every process of one build records into the file as that build compiled it, so the log is the
/// build's, not the process's: a journal in the temporary folder, named after the file, holding
/// the build's identity (``Platform/buildIdentity``), a hash of the text the last edit left, and
/// the edits in the order they were made. A journal of another build (the one before a rebuild,
/// which compiled the edited file), or of a text the file no longer holds (changed since by hand,
/// or made anew), is started anew. Read and written under the file's folder lock.
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

  /// The journal of the file at `path`.
  private static func journal(of path: String) -> String {
    // NB: named by the path's hash: one journal per file, in a flat folder.
    Platform.temporaryFolder + "/marbles-edits-" + SourceRecorder.hash(path.utf8)
  }

  /// The first line of a journal of this build's edits to `path`, which left it holding `text`.
  private static func header(of path: String, holding text: [UInt8]) -> String {
    Platform.buildIdentity + "\t" + path + "\t" + SourceRecorder.hash(text)
  }

  /// This build's edits to the file at `path`, which holds `text`, so far (none if the journal
  /// is another build's or another text's, or cannot be read).
  static func load(of path: String, holding text: [UInt8]) -> EditLog {
    var log = EditLog()
    guard let bytes = SourceRecorder.contents(of: journal(of: path)) else { return log }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    guard let first = lines.first, first == header(of: path, holding: text) else { return log }
    for line in lines.dropFirst() {
      let numbers = line.split(separator: " ").compactMap { Int($0) }
      guard numbers.count == 4 else { return EditLog() }
      log.shifts.append(
        Shift(end: (numbers[0], numbers[1]), newEnd: (numbers[2], numbers[3])))
    }
    return log
  }

  /// Writes the journal of the file at `path`, which now holds `source`: this log, as this
  /// build's. (A journal that cannot be written leaves later calls in other processes unmapped,
  /// as before journals: their literals' check still refuses a call that is not the one compiled.)
  func save(of path: String, holding source: [UInt8]) {
    var text = Self.header(of: path, holding: source) + "\n"
    for shift in shifts {
      text += "\(shift.end.line) \(shift.end.column) \(shift.newEnd.line) \(shift.newEnd.column)\n"
    }
    let descriptor = open(Self.journal(of: path), O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { return }
    defer { close(descriptor) }
    _ = SourceRecorder.writeAll(Array(text.utf8), to: descriptor)
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
