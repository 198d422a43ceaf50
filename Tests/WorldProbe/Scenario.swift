// The scenario both probes run (`Tests/WorldProbeBare/Scenario.swift` is a symbolic link to this
// file: the same code, in a process that links MarbleTesting alone).
import MarbleTesting
import Synchronization

final class Count: Sendable {
  let value = Atomic(0)
}

/// A scheduler made by synchronous code: starts a task that sleeps 300 ms, advances 400 ms, and
/// says whether the task woke.
@MainActor func scenario() -> Int {
  let scheduler = TestScheduler()
  let woken = Count()
  Task {
    try? await Task.sleep(for: .milliseconds(300))
    woken.value.add(1, ordering: .relaxed)
  }
  scheduler.advance(by: .milliseconds(400))
  return woken.value.load(ordering: .relaxed)
}
