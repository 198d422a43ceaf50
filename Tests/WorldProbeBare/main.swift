// A tool's process that links MarbleTesting alone (no test framework in it): `WorldProbeTests`
// runs it and reads what it prints, as for `WorldProbe`.
import Dispatch
import MarbleTesting

// `scenario()` (Scenario.swift, shared with `WorldProbe`) is made by synchronous code on the main
// thread, where no task is current.
// `deadlock`: a world whose test waits for a stream nobody feeds — reported on standard error,
// and the process ends with status 1 (`NeverHangsTests`).
// (In a task of its own: this file's top-level code stays synchronous, with no task current.)
if CommandLine.arguments.dropFirst().first == "deadlock" {
  let done = DispatchSemaphore(value: 0)
  Task.detached {
    await withVirtualTime { _ in
      for await _ in AsyncStream<Int>.makeStream().stream {}
    }
    print("after the deadlock")
    done.signal()
  }
  done.wait()
}

var lines: [String] = []
for _ in 0..<3 { lines.append("synchronous: \(scenario()) woken") }
let parts = RuntimeHooks.installedParts
lines.append("open worlds after: \(parts.contains("an open world") ? "some" : "none")")
print(lines.joined(separator: "\n"))
