/// A disposable holding one replaceable inner disposable.
///
/// Setting ``inner`` disposes the previous inner disposable (as in ReactiveSwift and RxSwift; RAC 2.5's
/// `RACSerialDisposable` left it alone, which leaks work). After the serial disposable is disposed, a
/// newly set inner disposable is disposed at once.
public final class SerialDisposable: Disposable {
  private struct State {
    var isDisposed = false
    var inner: (any Disposable)?
  }

  private let state: Locked<State>

  /// Creates a serial disposable, optionally with a first inner disposable.
  ///
  /// - Parameter inner: The first inner disposable.
  public init(_ inner: (any Disposable)? = nil) {
    state = Locked(State(inner: inner))
  }

  /// The current inner disposable. Setting it disposes the previous one; once the serial disposable
  /// is disposed, a new value is disposed at once and reading gives `nil`.
  public var inner: (any Disposable)? {
    get { state.withLock { $0.inner } }
    set {
      let previous = state.withLock { state -> (any Disposable)? in
        guard !state.isDisposed else { return newValue }
        defer { state.inner = newValue }
        return state.inner
      }
      previous?.dispose()
    }
  }

  /// Disposes the current inner disposable; later inner disposables are disposed at once.
  public func dispose() {
    let inner = state.withLock { state -> (any Disposable)? in
      guard !state.isDisposed else { return nil }
      state.isDisposed = true
      defer { state.inner = nil }
      return state.inner
    }
    inner?.dispose()
  }

  /// Whether the serial disposable has been disposed.
  public var isDisposed: Bool {
    state.withLock { $0.isDisposed }
  }
}
