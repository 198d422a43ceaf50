// Translation rule: `ManagedCriticalState`, which swift-async-algorithms' own tests reach inside
// the library (it is internal there), is given here by a twin over `Synchronization.Mutex` with
// the one method the ported support code calls.
import Synchronization

final class ManagedCriticalState<State>: @unchecked Sendable {
  // NB: @unchecked: the state is only reached inside the mutex.
  private let mutex: Mutex<State>

  init(_ initial: State) {
    mutex = Mutex(initial)
  }

  func withCriticalRegion<Result>(_ critical: (inout State) throws -> Result) rethrows -> Result {
    try mutex.withLock { try critical(&$0) }
  }
}
