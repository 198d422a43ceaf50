/// The pure state of one `sample(_:)` subscription: the source's latest value, if the trigger has
/// not sampled it yet.
///
/// The storage owns the lock; this type only decides.
struct SampleState<Value: Sendable>: Sendable {
  private var unsampled: Value?
  private var isTerminated = false

  /// The source sent a value: it replaces any unsampled one.
  mutating func sourceSent(_ value: Value) {
    guard !isTerminated else { return }
    unsampled = value
  }

  /// The trigger sent: the latest value, if there is one the trigger has not sampled yet.
  ///
  /// - Returns: The value to send, or `nil`.
  mutating func triggered() -> Value? {
    guard !isTerminated else { return nil }
    defer { unsampled = nil }
    return unsampled
  }

  /// The source or the trigger terminated.
  ///
  /// - Returns: Whether to forward the terminal event (false if the subscription had ended).
  mutating func terminated() -> Bool {
    guard !isTerminated else { return false }
    isTerminated = true
    unsampled = nil
    return true
  }
}
