/// Something that can be cancelled: a subscription, a scheduled action, a connection.
///
/// Disposing is idempotent and thread-safe: the first call does the work, later calls do nothing.
public protocol Disposable: Sendable {
  /// Cancels the work this disposable stands for. Calling it again does nothing.
  func dispose()

  /// Whether ``dispose()`` has been called (or the work ended and released itself).
  var isDisposed: Bool { get }
}
