#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `marbles` writes: standard output for tables, verdicts and the summary; standard error
/// for usage errors and fixture errors.
///
/// The writes go straight to the file descriptors, unbuffered, so standard output and standard
/// error interleave in the order they were written when both go to one terminal.
package struct Console: Sendable {
  /// Writes to standard output.
  package var output: @Sendable (String) -> Void
  /// Writes to standard error.
  package var error: @Sendable (String) -> Void

  /// Creates a console from two writers (a test can collect what would be printed).
  package init(
    output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void
  ) {
    self.output = output
    self.error = error
  }

  /// The process's standard output and standard error.
  package static let standard = Console(
    output: { writeAll($0, to: 1) }, error: { writeAll($0, to: 2) })

  /// Whether standard output is a terminal.
  package static var outputIsTerminal: Bool { isatty(1) == 1 }

  /// Writes all of `text` to the file descriptor, retrying after interruptions and short writes.
  private static func writeAll(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return  // A closed pipe or a full disk: nothing more can be said there.
        }
        offset += written
      }
    }
  }
}
