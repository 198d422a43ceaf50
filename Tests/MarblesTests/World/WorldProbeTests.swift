import Foundation
import TestSupport
import Testing

/// Outside any test — a tool or a benchmark, here the `WorldProbe` executables — a scheduler's
/// world is rooted at the code that made it: the tasks that code starts are driven by its
/// `advance`, and the world closes with the scheduler. On 29cb77b, in a process linking
/// MarbleTesting alone, a scheduler made where no task was current drove none of them ("0
/// woken"); in one linking Marbles, a first scheduler was taken for an XCTest case's and its
/// world never closed (benchmark phase i then read virtual time for its own timing).
@Suite struct WorldProbeTests {
  @Test func aToolsSchedulerDrivesTheTasksItsCodeStartsAndClosesWithIt() async throws {
    let (status, output) = try await runTool([try Self.location("WorldProbe").path])
    #expect(status == 0, "\(output)")
    #expect(
      output.components(separatedBy: "\n").filter { !$0.isEmpty } == [
        "synchronous: 1 woken", "synchronous: 1 woken", "synchronous: 1 woken",
        "async: 1 woken", "async: 1 woken", "async: 1 woken",
        "open worlds after: none",
      ], "\(output)")
  }

  @Test func soDoesOneInAProcessWithNoTestFramework() async throws {
    let (status, output) = try await runTool([try Self.location("WorldProbeBare").path])
    #expect(status == 0, "\(output)")
    #expect(
      output.components(separatedBy: "\n").filter { !$0.isEmpty } == [
        "synchronous: 1 woken", "synchronous: 1 woken", "synchronous: 1 woken",
        "open worlds after: none",
      ], "\(output)")
  }

  /// A probe next to the test bundle: the test target depends on both, so `swift test` and
  /// `swift build --build-tests` build them first.
  static func location(_ name: String) throws -> URL {
    let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let probe = products.appendingPathComponent(name)
    try #require(FileManager.default.isExecutableFile(atPath: probe.path), "no \(probe.path)")
    return probe
  }
}
