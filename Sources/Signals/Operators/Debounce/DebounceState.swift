/// The pure state of one `debounce` subscription: the value waiting for its quiet interval, and
/// which timer is the current one.
///
/// Each value gets a new timer and a new generation; a timer that fires with an older generation
/// was superseded (its cancellation raced with its firing) and sends nothing. The storage owns the
/// lock and the timer; this type only decides.
struct DebounceState<Value: Sendable>: FlushingState {
  /// What to do with a value that just arrived.
  enum NextAction {
    /// Start a timer for `generation`, replacing the previous timer.
    case startTimer(generation: Int)
    /// The subscription has ended: do nothing.
    case ignore
  }

  /// What to do when a timer fires.
  enum TimerAction {
    /// The interval passed with no newer value: send it.
    case send(Value)
    /// A newer value (or a terminal event) superseded this timer: do nothing.
    case ignore
  }

  private var pending: (value: Value, generation: Int)?
  private var generation = 0
  private var isTerminated = false

  /// A value arrived: it replaces any pending value and needs a fresh timer.
  mutating func next(_ value: Value) -> NextAction {
    guard !isTerminated else { return .ignore }
    generation += 1
    pending = (value, generation)
    return .startTimer(generation: generation)
  }

  /// The timer for `generation` fired.
  mutating func timerFired(generation: Int) -> TimerAction {
    guard !isTerminated, let pending, pending.generation == generation else { return .ignore }
    self.pending = nil
    return .send(pending.value)
  }

  /// The source completed: the pending value, if any, is flushed first.
  mutating func completed() -> FlushAction<Value> {
    guard !isTerminated else { return .ignore }
    isTerminated = true
    defer { pending = nil }
    return pending.map { .flushAndComplete($0.value) } ?? .complete
  }

  /// The source failed: the pending value is dropped.
  ///
  /// - Returns: Whether to forward the error (false if the subscription had ended).
  mutating func failed() -> Bool {
    guard !isTerminated else { return false }
    isTerminated = true
    pending = nil
    return true
  }
}
