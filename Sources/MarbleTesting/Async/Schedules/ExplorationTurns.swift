@_spi(Internals) import Signals

/// Explorations take turns, one at a time in the process: an exploration's schedules are the same
/// for a seed only if nothing else of the process takes part in them, and explorations running
/// side by side do — two tests that share an actor instance (a `static let shared`) run each
/// other's queued jobs on that actor, so that one test's choice points depended on the timing of
/// the other's. Waiting for a turn suspends the exploring task; it holds no thread.
package enum ExplorationTurns {
  private struct State {
    var isTaken = false
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  // NB: `Locked`, not a bare `Mutex`: the thread sanitizer sees its handoffs (a contended turn
  // was reported as a data race).
  private static let state = Locked(State())
  /// Whether the current task holds the turn: an exploration inside another runs in its turn.
  @TaskLocal private static var holdsTheTurn = false

  /// How many explorations wait for the turn now.
  package static var waitingCount: Int {
    state.withLock { $0.waiting.count }
  }

  /// Runs `body` in the process's one exploration turn, waiting for it first.
  package static func inTurn<Result>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async -> Result
  ) async -> Result {
    guard !holdsTheTurn else { return await body() }
    // NB: a test's world, open from an earlier exploration of the test, must not take the wait
    // for a deadlock.
    let world = World.current
    world?.beginsWaitingForATurn()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isFree = state.withLock { state -> Bool in
        guard state.isTaken else {
          state.isTaken = true
          return true
        }
        state.waiting.append(continuation)
        return false
      }
      if isFree { continuation.resume() }
    }
    world?.endsWaitingForATurn()
    defer {
      let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
        guard !state.waiting.isEmpty else {
          state.isTaken = false
          return nil
        }
        return state.waiting.removeFirst()
      }
      // NB: as code of no world: the next exploration is another test's task, which this code —
      // a world's root, or its work — would otherwise take for a task its work made (an id newer
      // than the world), and keep: the world's close cancelled it, from no test's context. (A
      // task that is a world's root still goes to its world.)
      ThreadSlot.outsideAnyWorld { next?.resume() }
    }
    return await $holdsTheTurn.withValue(true) { await body() }
  }
}
