// A tool's process, not a test runner, that links Marbles: `WorldProbeTests` runs it and reads
// what it prints. A scheduler made outside any test opens a world rooted at the code that made it,
// so the tasks that code starts are driven; the world closes with the scheduler, and readings
// after it are real again.
import Dispatch
import MarbleTesting
import Marbles
import Synchronization

final class Count: Sendable {
  let value = Atomic(0)
}

/// A scheduler made by synchronous code on the main thread, where no task is current.
@MainActor func fromSynchronousCode() -> Int {
  let scheduler = TestScheduler()
  let woken = Count()
  Task {
    try? await Task.sleep(for: .milliseconds(300))
    woken.value.add(1, ordering: .relaxed)
  }
  scheduler.advance(by: .milliseconds(400))
  return woken.value.load(ordering: .relaxed)
}

/// The same from async code: the main task of a benchmark.
@MainActor func fromAsyncCode() async -> Int {
  let scheduler = TestScheduler()
  let woken = Count()
  Task {
    try? await Task.sleep(for: .milliseconds(300))
    woken.value.add(1, ordering: .relaxed)
  }
  scheduler.advance(by: .milliseconds(400))
  return woken.value.load(ordering: .relaxed)
}

var lines: [String] = []
for _ in 0..<3 { lines.append("synchronous: \(fromSynchronousCode()) woken") }
for _ in 0..<3 { lines.append("async: \(await fromAsyncCode()) woken") }
let parts = RuntimeHooks.installedParts
lines.append("open worlds after: \(parts.contains("an open world") ? "some" : "none")")
print(lines.joined(separator: "\n"))
