// A tool's process, not a test runner, that links Marbles: `WorldProbeTests` runs it and reads
// what it prints. A scheduler made outside any test opens a world rooted at the code that made it,
// so the tasks that code starts are driven; the world closes with the scheduler, and readings
// after it are real again. (This file's top-level code awaits, so it is the main task: both
// kinds of line below come from code with a task current, as a benchmark's does; a scheduler
// made where no task is current is `WorldProbeBare`'s.)
import MarbleTesting
import Marbles

/// The same, called from async code.
@MainActor func fromAsyncCode() async -> Int {
  scenario()
}

// `deadlock`: a world whose test waits for a stream nobody feeds — reported on standard error,
// and the process ends with status 1 (`NeverHangsTests`).
if CommandLine.arguments.dropFirst().first == "deadlock" {
  await withVirtualTime { _ in
    for await _ in AsyncStream<Int>.makeStream().stream {}
  }
  print("after the deadlock")
}

var lines: [String] = []
for _ in 0..<3 { lines.append("synchronous: \(scenario()) woken") }
for _ in 0..<3 { lines.append("async: \(await fromAsyncCode()) woken") }
let parts = RuntimeHooks.installedParts
lines.append("open worlds after: \(parts.contains("an open world") ? "some" : "none")")
print(lines.joined(separator: "\n"))
