/// The pure state of one `sample(_:)` subscription: the source's latest value.
///
/// The storage owns the lock; this type only decides.
struct SampleState<Value: Sendable>: Sendable {
  private var latest: Value?
  private var isTerminated = false

  /// The source sent a value: it becomes the latest.
  mutating func sourceSent(_ value: Value) {
    guard !isTerminated else { return }
    latest = value
  }

  /// The trigger sent: the latest value, if the source has sent one — again and again, as RAC
  /// 2.5's `sample:` does, whether or not a trigger sampled it before.
  ///
  /// - Returns: The value to send, or `nil`.
  func triggered() -> Value? {
    guard !isTerminated else { return nil }
    return latest
  }

  /// The source or the trigger terminated.
  ///
  /// - Returns: Whether to forward the terminal event (false if the subscription had ended).
  mutating func terminated() -> Bool {
    guard !isTerminated else { return false }
    isTerminated = true
    latest = nil
    return true
  }
}
