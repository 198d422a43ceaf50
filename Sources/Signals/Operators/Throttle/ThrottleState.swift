/// The pure state of one `throttle` subscription: whether a window is open, and (with `latest`) the
/// trailing value waiting for the window to close.
///
/// The storage owns the lock and the window's timer; this type only decides.
struct ThrottleState<Value: Sendable>: FlushingState {
  /// What to do with a value, or with a window that has just closed.
  enum Action {
    /// Send the value now and open a window (start its timer).
    case sendAndOpenWindow(Value)
    /// Nothing to send: the value was kept or dropped, or the window closed empty.
    case ignore
  }

  /// Whether the latest value seen in a window is sent when it closes.
  let latest: Bool
  private var isWindowOpen = false
  private var trailing: Value?
  private var isTerminated = false

  init(latest: Bool) {
    self.latest = latest
  }

  /// A value arrived: with no window open it passes and opens one; inside a window it becomes the
  /// trailing value (`latest`) or is dropped.
  mutating func next(_ value: Value) -> Action {
    guard !isTerminated else { return .ignore }
    guard isWindowOpen else {
      isWindowOpen = true
      return .sendAndOpenWindow(value)
    }
    if latest { trailing = value }
    return .ignore
  }

  /// The window's interval has passed: a trailing value is sent and opens the next window.
  mutating func windowClosed() -> Action {
    guard !isTerminated, let value = trailing else {
      isWindowOpen = false
      return .ignore
    }
    trailing = nil
    return .sendAndOpenWindow(value)
  }

  /// The source completed: a trailing value is sent first.
  mutating func completed() -> FlushAction<Value> {
    guard !isTerminated else { return .ignore }
    isTerminated = true
    defer { trailing = nil }
    return trailing.map { .flushAndComplete($0) } ?? .complete
  }

  /// The source failed: a trailing value is dropped.
  ///
  /// - Returns: Whether to forward the error (false if the subscription had ended).
  mutating func failed() -> Bool {
    guard !isTerminated else { return false }
    isTerminated = true
    trailing = nil
    return true
  }
}
