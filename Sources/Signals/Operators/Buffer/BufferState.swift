/// The pure state of one `buffer(timeSpan:count:on:)` subscription: the values of the open window,
/// and which timer is the current one.
///
/// A window opens with its first value and closes when `count` values have arrived or its timer
/// fires, whichever comes first. Each window has its own generation, so a timer that fires for a
/// window already closed by its count sends nothing. The storage owns the lock and the timer; this
/// type only decides.
struct BufferState<Value: Sendable>: FlushingState {
  /// What to do with a value that just arrived.
  enum NextAction {
    /// The value opened a window: start its timer for `generation`.
    case startTimer(generation: Int)
    /// The value filled the window: cancel its timer and send the buffer.
    case send([Value])
    /// The value joined the open window, or the subscription has ended: do nothing.
    case ignore
  }

  /// What the storage does with the window's timer once a value's events are queued.
  enum TimerAction: Sendable {
    /// Start the timer of the window `generation`, which the value opened.
    case start(generation: Int)
    /// Cancel the timer: the value filled the window.
    case cancel
    /// Leave the timer alone.
    case keep
  }

  /// How many values fill a window.
  let count: Int
  private var buffer: [Value] = []
  private var generation = 0
  private var isTerminated = false

  init(count: Int) {
    self.count = count
  }

  /// A value arrived: it joins the window, opening it or filling it.
  mutating func next(_ value: Value) -> NextAction {
    guard !isTerminated else { return .ignore }
    buffer.append(value)
    if buffer.count == count { return .send(closeWindow()) }
    return buffer.count == 1 ? .startTimer(generation: generation) : .ignore
  }

  /// The timer for the window of `generation` fired.
  ///
  /// - Returns: The window's values to send, or `nil` if that window was closed already.
  mutating func timerFired(generation: Int) -> [Value]? {
    guard !isTerminated, generation == self.generation, !buffer.isEmpty else { return nil }
    return closeWindow()
  }

  /// The source completed: the open window's values are sent first.
  mutating func completed() -> FlushAction<[Value]> {
    guard !isTerminated else { return .ignore }
    isTerminated = true
    return buffer.isEmpty ? .complete : .flushAndComplete(closeWindow())
  }

  /// The source failed: the open window's values are dropped.
  ///
  /// - Returns: Whether to forward the error (false if the subscription had ended).
  mutating func failed() -> Bool {
    guard !isTerminated else { return false }
    isTerminated = true
    buffer = []
    return true
  }

  private mutating func closeWindow() -> [Value] {
    defer {
      buffer = []
      generation += 1
    }
    return buffer
  }
}
