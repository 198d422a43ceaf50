/// The equatable error a test signal sends by default — what `#` stands for in a marble.
///
/// Prints as `TestError("boom")`; two test errors are equal when their messages are.
public struct TestError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What the error says.
  public var message: String

  /// Creates a test error.
  ///
  /// - Parameter message: What the error says; `"error"` by default.
  public init(_ message: String = "error") {
    self.message = message
  }

  /// `TestError("message")`.
  public var description: String { "TestError(\(String(reflecting: message)))" }
}
