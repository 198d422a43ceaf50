import Foundation
import MarbleTesting
import Marbles
import TestSupport
import XCTest

/// Never a hang, in XCTest: a test that waits for a continuation nobody resumes fails with the
/// deadlock's report, and its process ends with a non-zero status within the stall timeout. On
/// 2026-11-28's `main` the process hung with no report at all.
final class NeverHangsXCTests: XCTestCase {
  func testAContinuationNobodyResumesFailsAndEndsTheProcess() throws {
    let (status, output) = try runToolBlocking(
      XCTestPathTests.command(running: "MarblesXCTests.HangingFixtureXCTests"),
      environment: ["MARBLES_HANGING_CHILD": "1"])
    XCTAssertEqual(status, 1, output)
    XCTAssertTrue(
      output.contains("error: HangingFixtureXCTests.testWaitsForAContinuationNobodyResumes"),
      output)
    XCTAssertTrue(output.contains("The test's world is deadlocked at tick 0"), output)
    XCTAssertTrue(output.contains(EndingWatch.endingNotice), output)
  }
}

/// Run by `NeverHangsXCTests` in a process of its own (it does nothing in the suite's own run):
/// a test in a world of its own, with a short stall timeout, that waits for ever.
final class HangingFixtureXCTests: XCTestCase {
  override func invokeTest() {
    withVirtualTime(stallTimeout: .milliseconds(300)) { _ in super.invokeTest() }
  }

  func testWaitsForAContinuationNobodyResumes() async {
    guard ProcessInfo.processInfo.environment["MARBLES_HANGING_CHILD"] != nil else { return }
    await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
  }
}
