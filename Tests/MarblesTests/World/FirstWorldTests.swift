import Foundation
import TestSupport
import Testing

@testable import MarbleTesting

/// The main-actor job that opens the process's first world runs on the runtime's own main
/// executor until it suspends, while the main actor's executor is Marbles' router from then on.
/// A `Task.immediate` in that job must still start at once: on 2026-11-28's `main` it was
/// enqueued instead, because the runtime's isolation check took the two for different actors —
/// so a test that opened the first world of its process saw its immediate task run after the
/// caller (in a full run another test had opened a world first, and it passed).
@Suite struct FirstWorldTests {
  @Test func aTaskImmediateInTheJobThatOpensTheFirstWorldStartsAtOnce() async throws {
    let output = try await runTestsInAChildProcess(
      filter: "FirstWorldFixture", environment: ["MARBLES_FIRST_WORLD_CHILD": "1"]
    ).output
    #expect(output.contains("no world was open before"), "\(output.suffix(3000))")
    #expect(
      output.contains("Test run with 1 test in 1 suite passed"), "\(output.suffix(3000))")
  }
}

/// Run by `FirstWorldTests` in a process of its own, where it opens the first world (it does
/// nothing in the suite's own run).
@Suite struct FirstWorldFixture {
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @MainActor @Test func aTaskImmediateStartsAtOnce() {
    guard ProcessInfo.processInfo.environment["MARBLES_FIRST_WORLD_CHILD"] != nil else { return }
    if RuntimeHooks.installedParts.isEmpty { print("no world was open before") }
    let scheduler = TestScheduler()
    var log: [String] = []
    Task.immediate {
      log.append("immediate, first step")
      await Task.yield()
      log.append("immediate, later")
    }
    log.append("caller goes on")
    scheduler.run()
    #expect(log == ["immediate, first step", "caller goes on", "immediate, later"])
  }
}
