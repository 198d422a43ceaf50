import Foundation
import MarbleTesting
import Marbles
import Synchronization
import TestSupport
import XCTest

/// XCTest's own readings of time stay real while a world's time runs ahead: a test's duration and
/// `measure {}`'s metric are real seconds, whatever the world's clock says. On 2026-11-29's `main`
/// a synchronous test whose scheduler, made in the method, advanced an hour was reported
/// `passed (3600.003 seconds)`, and `measure {}` around a minute of virtual time and 20 ms of
/// real work measured 60.002 s. (XCTest's readings are told from a test's by where they are made:
/// `marbles_read_by_a_test_framework`.)
final class RealDurationsXCTests: XCTestCase {
  func testXCTestsDurationsAndMeasurementsAreReal() throws {
    let (status, output) = try runToolBlocking(
      XCTestPathTests.command(running: "MarblesXCTests.RealDurationsFixtureXCTests"),
      environment: ["MARBLES_DURATIONS_CHILD": "1"])
    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(output.contains("Executed 3 tests, with 0 failures"), output)
    let averages = output.split(separator: "\n").compactMap { line -> Double? in
      guard let range = line.range(of: "average: ") else { return nil }
      return Double(line[range.upperBound...].prefix { $0 != "," })
    }
    XCTAssertEqual(averages.count, 1, output)
    // 20 ms of real work a round, a minute of virtual time: real seconds, however busy the machine.
    XCTAssertGreaterThanOrEqual(averages.first ?? 0, 0.019, output)
    XCTAssertLessThan(averages.first ?? .infinity, 30, output)
  }
}

/// Run in order by ``RealDurationsXCTests`` in a process of its own; skipped in a plain run.
final class RealDurationsFixtureXCTests: XCTestCase {
  static let durations = Mutex<[String: TimeInterval]>([:])

  override class func setUp() {
    XCTestObservationCenter.shared.addTestObserver(DurationWatcher())
  }

  override func setUpWithError() throws {
    try XCTSkipUnless(ProcessInfo.processInfo.environment["MARBLES_DURATIONS_CHILD"] != nil)
  }

  func testAnInMethodSchedulerMovesAnHour() {
    let scheduler = TestScheduler()
    scheduler.advance(by: .seconds(3600))
    XCTAssertEqual(scheduler.now, 3_600_000)
    // The test's own reading is the world's.
    XCTAssertGreaterThan(Date().timeIntervalSince(RealTime.reading { Date() }), 3599)
  }

  func testBMeasureAroundVirtualTime() {
    let scheduler = TestScheduler()
    measure {
      scheduler.advance(by: .seconds(60))
      Thread.sleep(forTimeInterval: 0.02)
    }
  }

  func testCTheDurationsWereReal() {
    let durations = Self.durations.withLock { $0 }
    let first = durations.first { $0.key.hasSuffix("testAnInMethodSchedulerMovesAnHour") }?.value
    XCTAssertNotNil(first, "ran before, in this process")
    XCTAssertLessThan(first ?? .infinity, 1800, "\(durations)")
    let second = durations.first { $0.key.hasSuffix("testBMeasureAroundVirtualTime") }?.value
    XCTAssertLessThan(second ?? .infinity, 1800, "\(durations)")
  }

  private final class DurationWatcher: NSObject, XCTestObservation {
    func testCaseDidFinish(_ testCase: XCTestCase) {
      RealDurationsFixtureXCTests.durations.withLock {
        $0[testCase.name] = testCase.testRun?.totalDuration
      }
    }
  }
}
