public import Signals

/// The full texts the `Marbles` assertions report, built here so that they can be tested without a
/// test framework.
public enum FailureMessage {
  /// The message for event lists that differ, or `nil` when they are equal.
  ///
  ///     recorded events differ at tick 4
  ///       expected  [next("a") @ 2, next("b") @ 4, completed @ 7]
  ///       actual    [next("a") @ 2, next("b") @ 5, completed @ 7]
  ///       expected next("b") at tick 4, got nothing; next("b") came at tick 5
  ///
  /// - Parameters:
  ///   - expected: What should have happened.
  ///   - actual: What happened.
  /// - Returns: The message, or `nil`.
  public static func events<Value: Equatable & Sendable, Failure: Error & Equatable>(
    expected: [Recorded<Event<Value, Failure>>], actual: [Recorded<Event<Value, Failure>>]
  ) -> String? {
    guard let diff = EventListDiff(expected: expected, actual: actual) else { return nil }
    return """
      recorded events differ at tick \(diff.tick)
        expected  \(expected)
        actual    \(actual)
        \(diff.summary)
      """
  }

  /// The message for subscription logs that differ, or `nil` when they are equal.
  ///
  /// - Parameters:
  ///   - expected: The subscriptions that should have happened.
  ///   - actual: The subscriptions that happened.
  /// - Returns: The message, or `nil`.
  public static func subscriptions(expected: [Subscription], actual: [Subscription]) -> String? {
    guard let diff = SubscriptionListDiff(expected: expected, actual: actual) else { return nil }
    return """
      subscriptions differ
        expected  \(expected)
        actual    \(actual)
        \(diff.summary)
      """
  }
}
