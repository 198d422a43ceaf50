import Signals
import Synchronization

/// One action in a ``TestScheduler``'s queue; disposing it before it runs means it never runs, and
/// disposing a repeating action stops it.
final class ScheduledAction: Disposable {
  let body: @Sendable () -> Void
  /// The repeat interval in ticks, or `nil` for a one-shot action.
  let interval: Int?
  /// The tick the first action of this chain was due at.
  let chainStart: Int
  private let cancelled = Atomic(false)

  init(body: @escaping @Sendable () -> Void, interval: Int?, chainStart: Int) {
    self.body = body
    self.interval = interval
    self.chainStart = chainStart
  }

  func dispose() { cancelled.store(true, ordering: .releasing) }
  var isDisposed: Bool { cancelled.load(ordering: .acquiring) }

  /// What `run()` says when this action exhausts the step limit.
  ///
  /// - Parameters:
  ///   - generation: How many actions in a row led to this one (see `ActionHeap.Entry`).
  ///   - time: When it is due next.
  func culpritDescription(generation: Int, dueAt time: Int) -> String {
    if let interval {
      return "a repeating action (every \(interval) tick\(interval == 1 ? "" : "s"), "
        + "first due at tick \(chainStart), \(generation) runs so far, next due at tick \(time)) — "
        + "dispose its timer or use advance(to:) instead of run()"
    }
    return "an action that keeps scheduling more work (a chain of \(generation + 1) actions, the "
      + "first due at tick \(chainStart), next due at tick \(time)) — an endless recursion or timer"
  }
}
