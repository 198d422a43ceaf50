/// When a subscriber subscribed to a test signal and when it went away.
///
/// Prints as `(0, 8)`, or `(3, ∞)` while still subscribed. A subscription closes when it is disposed
/// and also when the signal's terminal event tears it down.
public struct Subscription: Sendable, Hashable, CustomStringConvertible {
  /// The tick of the subscription.
  public var subscribed: Int
  /// The tick of the unsubscription, or `nil` while still subscribed.
  public var disposed: Int?

  /// Creates a subscription record.
  ///
  /// - Parameters:
  ///   - subscribed: The tick of the subscription.
  ///   - disposed: The tick of the unsubscription, or `nil` while still subscribed.
  public init(subscribed: Int, disposed: Int? = nil) {
    self.subscribed = subscribed
    self.disposed = disposed
  }

  /// Shorthand for `Subscription(subscribed:disposed:)`: `Subscription(0, 8)`.
  ///
  /// - Parameters:
  ///   - subscribed: The tick of the subscription.
  ///   - disposed: The tick of the unsubscription, or `nil` while still subscribed.
  public init(_ subscribed: Int, _ disposed: Int? = nil) {
    self.init(subscribed: subscribed, disposed: disposed)
  }

  /// `(subscribed, disposed)`, with `∞` while still subscribed.
  public var description: String {
    "(\(subscribed), \(disposed.map(String.init) ?? "∞"))"
  }
}
