import Foundation
import MarbleTesting
import Marbles
import Signals
import Synchronization
import TestSupport
import Testing

/// A process that opens no world is untouched: no hook, executor, thread or routing of Marbles is
/// in place, read from the runtime itself (``RuntimeHooks/installedParts``), after a whole run of
/// tests that open none. On 2026-11-27's `main` the main executor hook was installed when the
/// process loaded.
@Suite struct UntouchedProcessTests {
  @Test func aRunOfTestsThatOpenNoWorldLeavesTheRuntimeAsItWas() async throws {
    let output = try await runTestsInAChildProcess(
      filter: "^SignalsTests\\.|UntouchedProcessFixture",
      // The reactive core's stress tests take half a minute of both cores, and open no world
      // either.
      ["--skip", "ConcurrencyTests"],
      environment: ["MARBLES_UNTOUCHED_CHILD": "1"]
    ).output
    // The fixture read the runtime when it ran, and again when the process exited, after every
    // other test of the run.
    #expect(
      output.contains("Marbles in place while the tests run: nothing"), "\(output.suffix(3000))")
    #expect(output.contains("Marbles in place at exit: nothing"), "\(output.suffix(3000))")
    // The run was a real one: the reactive core's tests ran, and passed.
    let ran = try #require(
      output.firstMatch(of: /Test run with (\d+) tests? in \d+ suites? passed/),
      "\(output.suffix(3000))")
    #expect(Int(ran.1)! > 100)
  }

  @Test func aWorldPutsItsPartsInPlaceWhileItIsOpen() {
    withVirtualTime { _ in
      let parts = RuntimeHooks.installedParts
      #expect(parts.contains("a global enqueue hook"), "\(parts)")
      #expect(parts.contains("a main executor hook"), "\(parts)")
      #expect(parts.contains("an is-main-executor hook"), "\(parts)")
      #expect(parts.contains("Marbles' watchdog thread"), "\(parts)")
      #expect(parts.contains("an open world"), "\(parts)")
    }
  }
}

/// Run by `UntouchedProcessTests` in a process of its own, beside the reactive core's tests (it
/// does nothing in the suite's own run): uses Marbles without a scheduler — a marble diagram read,
/// a signal, main-actor hops — and says what of Marbles is in place, now and when the process
/// exits.
@Suite struct UntouchedProcessFixture {
  @Test func usesMarblesWithoutAWorld() async throws {
    guard ProcessInfo.processInfo.environment["MARBLES_UNTOUCHED_CHILD"] != nil else { return }
    _ = try Marble.parse("--a--b--|", values: ["a": 1, "b": 2])
    let values = Mutex<[Int]>([])
    _ = Signal<Int, Never>.from([1, 2, 3]).map { $0 * 2 }.subscribe(next: { value in
      values.withLock { $0.append(value) }
    })
    for _ in 0..<100 { await MainActor.run { values.withLock { $0.append(0) } } }
    try await Task.sleep(for: .milliseconds(1))
    Self.say("Marbles in place while the tests run")
    atexit { UntouchedProcessFixture.say("Marbles in place at exit") }
  }

  static func say(_ label: String) {
    let parts = RuntimeHooks.installedParts
    let line = "\(label): \(parts.isEmpty ? "nothing" : parts.joined(separator: ", "))\n"
    FileHandle.standardOutput.write(Data(line.utf8))
  }
}
