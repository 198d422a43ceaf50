import Foundation
import MarbleTesting
import Marbles
import Signals
import TestSupport
import XCTest

/// Exploring schedules from XCTest: a Marbles assertion that fails in some order of same-tick
/// work fails the test once, at the call, with the report.
extension XCTestPathTests {
  func testExploreSchedulesReportsTheFailingOrderOnceAtTheCall() async {
    captured = []
    capturing = true
    let line = #line + 1
    let exploration = await exploreSchedules(50, seed: 5) {
      let scheduler = TestScheduler()
      let subject = Subject<String, Never>()
      let received = scheduler.record(subject)
      scheduler.task(name: "sends a") { subject.sendNext("a") }
      scheduler.task(name: "sends b") { subject.sendNext("b") }
      scheduler.run()
      assertMarbles(received, "(ab)")
    }
    capturing = false
    XCTAssertEqual(captured.count, 1)
    XCTAssertEqual(captured.first?.line, line)
    XCTAssertEqual(exploration.failure?.departures, 1)
    let report = captured.first?.description ?? ""
    XCTAssertTrue(report.contains("schedule 0 (FIFO) passes"), report)
    XCTAssertTrue(report.contains("marbles differ at frame 0"), report)
    XCTAssertTrue(report.contains("sends b"), report)
    XCTAssertTrue(report.contains("replay it: @Test(.exploringSchedules(replay: \"mrb1-"), report)
  }

  /// `MARBLES_SCHEDULES` raises every exploration's count, and `MARBLES_SCHEDULE_SEED` is the seed
  /// of explorations that give none: checked in a child run of this test with both set (a variable
  /// set here would reach every test of the process).
  func testTheEnvironmentRaisesTheCountAndGivesTheSeed() async throws {
    let environment = ProcessInfo.processInfo.environment
    let isChild = environment["MARBLES_SCHEDULES_CHILD"] != nil
    let exploration = await exploreSchedules(3) {
      let scheduler = TestScheduler()
      scheduler.task { _ = 1 }
      scheduler.task { _ = 2 }
      scheduler.run()
    }
    XCTAssertNil(exploration.failure)
    if isChild {
      XCTAssertEqual(exploration.schedulesRun, 40)
      XCTAssertEqual(exploration.seed, 0x2a)
      return
    }
    XCTAssertEqual(exploration.schedulesRun, 3)
    let (status, output) = try runToolBlocking(
      Self.command(
        running: "MarblesXCTests.XCTestPathTests/testTheEnvironmentRaisesTheCountAndGivesTheSeed"),
      environment: [
        "MARBLES_SCHEDULES_CHILD": "1", "MARBLES_SCHEDULES": "40", "MARBLES_SCHEDULE_SEED": "0x2a",
      ])
    XCTAssertEqual(status, 0, output)
  }
}
