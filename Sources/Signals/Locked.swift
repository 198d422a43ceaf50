package import Synchronization

/// A value guarded by a `Synchronization.Mutex`, the one lock every type in the package uses.
///
/// State is only ever touched inside ``withLock(_:)``. `Mutex` is not reentrant: taking the same lock
/// again from inside `withLock` traps, which is a useful tripwire for the house rule that nothing
/// calls out — to a subscriber, an action or a user closure — while holding a lock. Copy what you
/// need inside the closure, act after it returns.
package final class Locked<State>: Sendable {
  @usableFromInline let mutex: Mutex<State>

  /// Creates a lock around an initial state.
  @inlinable
  package init(_ initialState: consuming sending State) {
    mutex = Mutex(initialState)
  }

  /// Runs `body` with exclusive access to the state and returns its result.
  @inlinable
  package func withLock<Result, E: Error>(
    _ body: (inout sending State) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock(body)
  }
}
