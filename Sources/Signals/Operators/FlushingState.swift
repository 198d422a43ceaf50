/// What an operator holding one pending output (debounce's value, throttle's trailing value,
/// buffer's open window) does when its source terminates.
enum FlushAction<Output> {
  /// Send the pending output, then complete.
  case flushAndComplete(Output)
  /// Nothing pending: complete.
  case complete
  /// The subscription has ended already: do nothing.
  case ignore
}

/// The terminal half of such an operator's state machine: on completion it flushes what it holds,
/// on error it drops it, and after either it ignores everything.
protocol FlushingState: Sendable {
  /// What the operator sends: a value, or a window of values.
  associatedtype Output: Sendable

  /// The source completed.
  mutating func completed() -> FlushAction<Output>

  /// The source failed; `false` if the subscription has ended already.
  mutating func failed() -> Bool
}

extension OrderedDelivery where State: FlushingState, State.Output == Value {
  /// Sends `error` downstream unless the subscription has ended, dropping what is pending.
  func sendError(_ error: Failure) {
    update { state, outgoing in
      if state.failed() { outgoing.append(.error(error)) }
    }
  }

  /// Completes downstream unless the subscription has ended, sending what is pending first.
  func sendCompletion() {
    update { state, outgoing in
      switch state.completed() {
      case .flushAndComplete(let output): outgoing += [.next(output), .completed]
      case .complete: outgoing.append(.completed)
      case .ignore: break
      }
    }
  }
}
