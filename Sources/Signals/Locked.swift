public import Synchronization

/// A value guarded by a `Synchronization.Mutex`, the one lock every type in the package uses.
///
/// Not public API: it is SPI (`@_spi(Internals) import Signals`) because `package` declarations'
/// inlinable bodies are not emitted into the other modules of the package, and `MarbleTesting` must
/// specialize `withLock` for its own state — unspecialized, every call looked up `Mutex<State>`'s
/// type metadata in the runtime's cache (30% of the instructions of a `TestScheduler` action).
///
/// State is only ever touched inside ``withLock(_:)``. `Mutex` is not reentrant: taking the same lock
/// again from inside `withLock` traps, which is a useful tripwire for the house rule that nothing
/// calls out — to a subscriber, an action or a user closure — while holding a lock. Copy what you
/// need inside the closure, act after it returns.
@_spi(Internals) public final class Locked<State>: Sendable {
  /// NB: a lock of no value, beside the state: a `Mutex<State>` made an unspecialized
  /// `withLock` — every call in a debug build, which is how a user's tests are built — look up
  /// `Mutex<State>`'s type metadata in the runtime's cache.
  @usableFromInline let mutex = Mutex<Void>(())
  /// NB: unchecked, for the compiler and at run time: touched only inside `mutex`'s lock, in
  /// ``withLock(_:)``, which is exclusive access already (checked, each access cost a call into
  /// the runtime's access set).
  @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var state: State
  /// NB: makes each critical section's ordering visible to the thread sanitizer. On Linux a contended
  /// `Mutex` waits in the kernel (futex) from inside `libswiftSynchronization`, where TSan cannot see
  /// it, so without this every lock handoff is reported as a data race (124 false reports in the
  /// concurrency tests). The acquire load on entry and release store on exit add no ordering the
  /// mutex does not already give.
  @usableFromInline let handoff = Atomic<Int>(0)

  /// Creates a lock around an initial state.
  @inlinable
  public init(_ initialState: consuming sending State) {
    state = initialState
  }

  /// Runs `body` with exclusive access to the state and returns its result.
  ///
  /// Emitted into each calling module, so that it is specialized for the caller's `State`.
  @_alwaysEmitIntoClient @inline(__always)
  public func withLock<Result, E: Error>(
    _ body: (inout sending State) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    try mutex.withLock { (_: inout sending Void) throws(E) -> sending Result in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(0, ordering: .releasing) }
      return try body(&state)
    }
  }
}
