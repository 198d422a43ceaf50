/// A disposable that runs a closure the first time it is disposed.
///
/// ```swift
/// let task = startRequest()
/// return AnyDisposable { task.cancel() }
/// ```
///
/// The closure runs at most once, on the thread that disposes first, and is released right after.
public final class AnyDisposable: Disposable {
  private struct State {
    var isDisposed = false
    var action: (@Sendable () -> Void)?
  }

  private let state: Locked<State>

  /// Creates a disposable that only records that it was disposed.
  public init() {
    state = Locked(State())
  }

  /// Creates a disposable that runs `action` the first time it is disposed.
  ///
  /// - Parameter action: The cleanup to run; it is released after it runs.
  public init(_ action: @escaping @Sendable () -> Void) {
    state = Locked(State(action: action))
  }

  /// Runs the action the first time; later calls do nothing.
  public func dispose() {
    let action = state.withLock { state -> (@Sendable () -> Void)? in
      guard !state.isDisposed else { return nil }
      state.isDisposed = true
      defer { state.action = nil }
      return state.action
    }
    action?()
  }

  /// Whether the disposable has been disposed.
  public var isDisposed: Bool {
    state.withLock { $0.isDisposed }
  }
}
