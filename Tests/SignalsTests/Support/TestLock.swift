import Synchronization

/// The test target's lock: a `Mutex`, plus a hand-off the thread sanitizer can see.
///
/// On Linux a contended `Synchronization.Mutex` blocks in the kernel from the uninstrumented
/// `libswiftSynchronization.so`, so TSan never learns that one critical section happens before the
/// next and reports the guarded state as racing. Acquiring `handoff` on entry and releasing it on
/// exit gives TSan that edge; it orders nothing the mutex does not order already.
final class TestLock<State>: Sendable {
  private let mutex: Mutex<State>
  private let handoff = Atomic(0)

  init(_ state: sending State) {
    mutex = Mutex(state)
  }

  /// Runs `body` with exclusive access to the state.
  @discardableResult
  func withLock<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
    mutex.withLock { state in
      _ = handoff.load(ordering: .acquiring)
      defer { handoff.store(0, ordering: .releasing) }
      return body(&state)
    }
  }
}
