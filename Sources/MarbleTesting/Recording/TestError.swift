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

  /// The test error that stands for `error` where an assertion compares errors of type
  /// `any Error`: `error` itself if it is a test error, else one whose message is the error's type
  /// and description (`TestError(naming: Offline())` is `TestError("Offline: the network is
  /// offline")` for an `Offline` error described so). Two errors of `any Error` compare equal
  /// when their test errors do: same type name, same description.
  ///
  /// ```swift
  /// scheduler.expect(prices).toBe("a--#", error: TestError(naming: Offline()))
  /// ```
  ///
  /// - Parameter error: Any error.
  public init(naming error: any Error) {
    self = (error as? TestError) ?? TestError("\(type(of: error)): \(error)")
  }

  /// `TestError("message")`.
  public var description: String { "TestError(\(String(reflecting: message)))" }
}
