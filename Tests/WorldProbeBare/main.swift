// A tool's process that links MarbleTesting alone (no test framework in it): `WorldProbeTests`
// runs it and reads what it prints, as for `WorldProbe`.
import MarbleTesting
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

var lines: [String] = []
for _ in 0..<3 { lines.append("synchronous: \(fromSynchronousCode()) woken") }
let parts = RuntimeHooks.installedParts
lines.append("open worlds after: \(parts.contains("an open world") ? "some" : "none")")
print(lines.joined(separator: "\n"))
