/// A command line `marbles` cannot act on: what is wrong, and a hint for what to type instead.
///
/// Printed to standard error as `marbles: <message>` and then the hint; the command exits with
/// ``ExitStatus/error``.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, in one sentence.
  package var message: String
  /// What to do about it.
  package var hint: String

  /// Creates a usage error.
  ///
  /// - Parameters:
  ///   - message: What is wrong.
  ///   - hint: What to do about it; by default, a pointer to `marbles --help`.
  package init(_ message: String, hint: String = UsageError.helpHint) {
    self.message = message
    self.hint = hint
  }

  /// The hint most usage errors end with.
  package static let helpHint = "Run 'marbles --help' for usage."

  /// `marbles: <message>`, then the hint on its own line.
  package var description: String { "marbles: \(message)\n\(hint)" }
}
