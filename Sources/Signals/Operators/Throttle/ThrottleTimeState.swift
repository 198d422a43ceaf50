/// The pure state of one `throttle(_:leading:trailing:on:)` subscription, after RxJS 7's
/// `throttle` with `throttleTime`'s timer: whether a window is open, the value it holds, and a
/// completion waiting for the window to close.
///
/// The storage owns the lock and the window's timer; this type only decides, appending the events
/// to send to `outgoing`. Each transition returns whether to open a window (start its timer).
struct ThrottleTimeState<Value: Sendable>: Sendable {
  /// Whether the value that opens a window is sent at once.
  let leading: Bool
  /// Whether the latest value seen in a window is sent when the window closes.
  let trailing: Bool
  private var isWindowOpen = false
  /// The latest value not sent yet (RxJS's `sendValue`, kept while `hasValue`).
  private var held: Value?
  /// The source completed; with a trailing value held, the completion waits for the window.
  private var isCompleted = false
  private var isTerminated = false

  init(leading: Bool, trailing: Bool) {
    self.leading = leading
    self.trailing = trailing
  }

  /// A value arrived. With no window open it opens one — sending the value first if `leading`;
  /// inside a window it is held (only a trailing send uses it).
  mutating func next(_ value: Value, _ outgoing: inout [Event<Value, some Error>]) -> Bool {
    guard !isTerminated, !isCompleted else { return false }
    held = value
    guard !isWindowOpen else { return false }
    isWindowOpen = true
    if leading {
      held = nil
      outgoing.append(.next(value))
    }
    return true
  }

  /// The window's time has passed. With `trailing`, a held value is sent and opens the next window
  /// (unless the source has completed, which then completes).
  mutating func windowClosed(_ outgoing: inout [Event<Value, some Error>]) -> Bool {
    guard !isTerminated else { return false }
    isWindowOpen = false
    guard trailing else { return false }
    if let value = held {
      held = nil
      outgoing.append(.next(value))
      if !isCompleted {
        isWindowOpen = true
        return true
      }
    }
    if isCompleted {
      isTerminated = true
      outgoing.append(.completed)
    }
    return false
  }

  /// The source completed: at once, unless a trailing value waits for the open window.
  mutating func completed(_ outgoing: inout [Event<Value, some Error>]) {
    guard !isTerminated, !isCompleted else { return }
    isCompleted = true
    guard trailing, held != nil, isWindowOpen else {
      isTerminated = true
      held = nil
      outgoing.append(.completed)
      return
    }
  }

  /// The source failed: at once; a held value is dropped.
  ///
  /// - Returns: Whether to forward the error (false if the subscription had ended).
  mutating func failed() -> Bool {
    guard !isTerminated else { return false }
    isTerminated = true
    held = nil
    return true
  }
}
