// snippet: Context.swift
import Synchronization

/// Go's `context.Context`, as much of it as the examples use: cancellation, a deadline (a task
/// that sleeps), and functions to call once cancelled (each in a task of its own).
final class Context: Sendable {
  enum Failure: Error, Equatable {
    case canceled
    case deadlineExceeded
  }

  private struct State {
    var error: Failure?
    var afterFuncs: [@Sendable () -> Void] = []
    var timer: Task<Void, Never>?
  }

  private let state = Mutex(State())

  static func withCancel() -> Context {
    Context()
  }

  static func withTimeout(_ timeout: Duration) -> Context {
    let context = Context()
    let timer = Task { [weak context] in
      guard (try? await Task.sleep(for: timeout)) != nil else { return }
      context?.end(.deadlineExceeded)
    }
    context.state.withLock { $0.timer = timer }
    return context
  }

  var error: Failure? {
    state.withLock { $0.error }
  }

  func cancel() {
    end(.canceled)
  }

  func afterFunc(_ body: @escaping @Sendable () -> Void) {
    let isDone = state.withLock { state -> Bool in
      guard state.error == nil else { return true }
      state.afterFuncs.append(body)
      return false
    }
    if isDone { Task { body() } }
  }

  private func end(_ error: Failure) {
    let (funcs, timer) = state.withLock { state -> ([@Sendable () -> Void], Task<Void, Never>?) in
      guard state.error == nil else { return ([], nil) }
      state.error = error
      defer { state.afterFuncs = [] }
      return (state.afterFuncs, state.timer)
    }
    timer?.cancel()
    for body in funcs { Task { body() } }
  }
}
// snippet-end
