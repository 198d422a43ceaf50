import Dispatch
import Foundation
import Synchronization

/// Runs `body(index)` on `count` threads at once and waits for all of them.
///
/// Each index gets its own serial queue (so `count` real threads, even on a two-core machine, where
/// `concurrentPerform` would run only two at a time); all start together behind a gate.
///
/// The wait happens on a thread of its own, not on one of the cooperative pool's few threads, which
/// every other test of a parallel run needs.
///
/// - Returns: `false` if they did not all finish within `timeout` (a deadlock).
func runOnThreads(
  _ count: Int, timeout: DispatchTimeInterval = .seconds(300),
  _ body: @escaping @Sendable (_ index: Int) -> Void
) async -> Bool {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: runOnThreadsBlocking(count, timeout: timeout, body)) }
      .start()
  }
}

private func runOnThreadsBlocking(
  _ count: Int, timeout: DispatchTimeInterval,
  _ body: @escaping @Sendable (_ index: Int) -> Void
) -> Bool {
  let group = DispatchGroup()
  let gate = DispatchSemaphore(value: 0)
  for index in 0..<count {
    DispatchQueue(label: "Signals.tests.thread-\(index)").async(group: group) {
      gate.wait()
      body(index)
    }
  }
  for _ in 0..<count { gate.signal() }
  return group.wait(timeout: .now() + timeout) == .success
}

/// Detects overlapping callbacks: `enter()` while another callback is inside counts a violation.
final class OverlapDetector: Sendable {
  private let inside = Atomic(false)
  private let overlaps = Atomic(0)

  func enter() {
    if !inside.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent)
      .exchanged
    {
      overlaps.add(1, ordering: .sequentiallyConsistent)
    }
  }

  func exit() {
    inside.store(false, ordering: .sequentiallyConsistent)
  }

  /// How many callbacks started while another was running.
  var overlapCount: Int { overlaps.load(ordering: .sequentiallyConsistent) }
}
