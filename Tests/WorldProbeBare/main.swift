// A tool's process that links MarbleTesting alone (no test framework in it): `WorldProbeTests`
// runs it and reads what it prints, as for `WorldProbe`.
import MarbleTesting

// `scenario()` (Scenario.swift, shared with `WorldProbe`) is made by synchronous code on the main
// thread, where no task is current.
var lines: [String] = []
for _ in 0..<3 { lines.append("synchronous: \(scenario()) woken") }
let parts = RuntimeHooks.installedParts
lines.append("open worlds after: \(parts.contains("an open world") ? "some" : "none")")
print(lines.joined(separator: "\n"))
