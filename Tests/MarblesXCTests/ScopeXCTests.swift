import Foundation
import MarbleTesting
import Marbles
import Synchronization
import TestSupport
import XCTest

/// A scheduler kept in a test case's property, made in `setUp`, is the test's world: it closes
/// when the test ends, and nothing of it reaches the tests after (on 2026-11-26's `main` later
/// tests of the process read a frozen `Date()`, their `Task {}` were held, and XCTest printed
/// durations of an hour). XCTest runs these two in order (their names sort so).
final class ScopeAXCTests: XCTestCase {
  var scheduler: TestScheduler!
  /// The duration XCTest measured for the first test.
  static let measured = Mutex<TimeInterval?>(nil)

  override class func setUp() {
    // Marbles watches XCTest from its first world on; a world opened before this class's tests
    // makes sure it knows each of them from its start, as it does in a full run.
    _ = TestScheduler()
  }

  override func setUp() {
    scheduler = TestScheduler()
  }

  func testAFirstTestMovesItsSchedulerAnHour() {
    scheduler.advance(by: .seconds(3600))
    XCTAssertEqual(scheduler.now, 3_600_000)
    XCTestObservationCenter.shared.addTestObserver(DurationWatcher())
  }

  func testBLaterTestsAreUntouched() {
    // XCTest's own clock: the first test's duration is real. (Under `--parallel` XCTest runs
    // each test in a process of its own: `ScopeSerialRunXCTests` runs the two in one.)
    if ProcessInfo.processInfo.environment["MARBLES_SCOPE_CHILD"] != nil {
      let duration = Self.measured.withLock { $0 }
      XCTAssertNotNil(duration, "the first test ran before, in this process")
      // Not the hour the first test's scheduler moved: a duration on XCTest's real clock, however
      // busy the machine.
      XCTAssertLessThan(duration ?? .infinity, 1800)
    }
    // Date() is real: the same as a reading Marbles' real clock makes, not an hour off.
    let real = RealTime.reading { Date() }
    XCTAssertLessThan(abs(Date().timeIntervalSince(real)), 1800)
    // A Task {} runs by itself.
    let ran = expectation(description: "ran")
    Task { ran.fulfill() }
    wait(for: [ran], timeout: 30)
  }

  private final class DurationWatcher: NSObject, XCTestObservation {
    func testCaseDidFinish(_ testCase: XCTestCase) {
      guard testCase.name.hasSuffix("testAFirstTestMovesItsSchedulerAnHour") else { return }
      ScopeAXCTests.measured.withLock { $0 = testCase.testRun?.totalDuration }
    }
  }
}

/// XCTest's waits in a synchronous test method with a world return: met by world work, or after
/// their own timeout in real time (on 2026-11-26's `main` they never returned).
final class ScopeBXCTests: XCTestCase {
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  func testAWaitThatTimesOutReturnsAfterItsOwnTimeout() {
    TestScheduler.current!.advance(by: .seconds(3600))
    let never = expectation(description: "never fulfilled")
    let start = RealTime.reading { ContinuousClock.now }
    let result = XCTWaiter().wait(for: [never], timeout: 0.5)
    let took = RealTime.reading { ContinuousClock.now } - start
    XCTAssertEqual(result, .timedOut)
    XCTAssertGreaterThanOrEqual(took, .milliseconds(450))
    never.fulfill()
  }

  func testARunLoopRunReturns() {
    TestScheduler.current!.advance(by: .seconds(3600))
    let start = RealTime.reading { ContinuousClock.now }
    RunLoop.current.run(until: Date().addingTimeInterval(0.3))
    let took = RealTime.reading { ContinuousClock.now } - start
    // It returned, and not an hour later (its date was the world's, an hour ahead): it waited on
    // the real clock. A lower bound would be a timing; this is which clock.
    XCTAssertLessThan(took, .seconds(1800))
  }
}

/// Another task's job that runs inside a synchronous test's run loop is not the test's code, and
/// does not end the test's mark: the tasks the test starts after it are still the world's. Which
/// code the mark stands for is decided in one place, `marbles_scope_here`, which the readings of
/// time take too; on 2026-11-27's `main` the routing decided it again, and such a job ended the
/// mark — the test's next `Task {}` slept its 10 s in real time.
final class ScopeAfterARunLoopXCTests: XCTestCase {
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  func testTheTestsTasksAfterAnotherTasksJobInItsRunLoopAreStillTheWorlds() {
    let scheduler = TestScheduler.current!
    // A task made outside the world, on a thread of its own, whose main-actor job starts a task.
    let foreignRan = expectation(description: "the foreign task's main-actor job ran")
    let thread = Thread {
      Task { @MainActor in
        Task {}
        foreignRan.fulfill()
      }
    }
    thread.start()
    wait(for: [foreignRan], timeout: 30)
    let slept = Mutex(false)
    Task {
      try await Task.sleep(for: .seconds(10))
      slept.withLock { $0 = true }
    }
    scheduler.advance(by: .seconds(10))
    XCTAssertTrue(slept.withLock { $0 }, "the test's task slept its 10 s in virtual time")
  }
}

/// Runs `ScopeAXCTests` in a serial XCTest run of its own: its two tests, in order, in one
/// process, as a serial `swift test` runs them.
final class ScopeSerialRunXCTests: XCTestCase {
  func testTheTwoScopeTestsRunInOrderInOneProcess() throws {
    let (status, output) = try runToolBlocking(
      XCTestPathTests.command(running: "MarblesXCTests.ScopeAXCTests"),
      environment: ["MARBLES_SCOPE_CHILD": "1"])
    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(output.contains("Executed 2 tests, with 0 failures"), output)
  }
}

/// What an XCTest world that closes with work still waiting says: a warning, recorded when the
/// world closes. On 2026-11-27's `main` the world finished its reporter before the warning was
/// handed to it: the warning waited two seconds of real time for a recorder that had stopped, then
/// was printed as an error.
final class ClosingWithWorkXCTests: XCTestCase {
  func testTheWarningIsRecordedAsAWarningWhenTheWorldCloses() throws {
    let (status, output) = try runToolBlocking(
      XCTestPathTests.command(running: "MarblesXCTests.ClosingWithWorkFixtureXCTests"),
      environment: ["MARBLES_CLOSING_CHILD": "1"])
    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(
      output.contains(
        "warning: The test's world closed with work still waiting, which was cancelled:\n"
          + "  - task "),
      output)
    XCTAssertTrue(output.contains(" sleeps until tick 60000\n"), output)
    XCTAssertFalse(output.contains(": error:"), output)
  }
}

/// Run by `ClosingWithWorkXCTests` in a process of its own (it does nothing in the suite's own
/// run): a test in a world of its own that leaves a task asleep.
final class ClosingWithWorkFixtureXCTests: XCTestCase {
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  func testLeavesATaskAsleep() async {
    guard ProcessInfo.processInfo.environment["MARBLES_CLOSING_CHILD"] != nil else { return }
    let started = AsyncStream<Void>.makeStream()
    Task {
      started.continuation.yield()
      try await Task.sleep(for: .seconds(60))
    }
    for await _ in started.stream { break }
  }
}
