@_spi(Internals) import Signals

/// The disposable for one action on a ``TestScheduler``: disposing it before the action runs means
/// the action never runs (and its closure is released at once); disposing a repeating action stops
/// it.
///
/// A value, not an object: it names the action's slot in the scheduler's queue and the action's
/// unique id, so that scheduling allocates nothing but the action's own closure (the object that
/// used to stand for each action was a fifth of the cost of scheduling one). Three words fit in an
/// existential's inline buffer, so returning it as `any Disposable` allocates nothing either.
///
/// It holds the scheduler's state, not the scheduler: a pending closure that holds its own handle
/// then keeps only the state alive, and the scheduler's `deinit` releases such closures.
struct ScheduledActionHandle: Disposable {
  let state: Locked<SchedulerCore.State>
  let slot: Int
  let id: Int

  func dispose() {
    // NB: the closure is released outside the lock: its captures may dispose more work.
    let body = state.withLock { $0.time.cancel(slot: slot, id: id) }
    _ = body
  }

  /// Whether the action was cancelled, or has started running and does not repeat.
  var isDisposed: Bool {
    state.withLock { $0.time.actions.isFinished(slot: slot, id: id) }
  }
}
