import Foundation
import MarbleTesting
import Marbles
import Signals
import Synchronization
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
    XCTAssertTrue(report.contains("replay it: @Test(.exploringSchedules(replay: \"mrb2-"), report)
  }

  /// `MARBLES_SCHEDULES` raises every exploration's count, and `MARBLES_SCHEDULE_SEED` is the seed
  /// of explorations that give none: checked in a child run of this test with both set (a variable
  /// set here would reach every test of the process).
  func testTheEnvironmentRaisesTheCountAndGivesTheSeed() async throws {
    let environment = ProcessInfo.processInfo.environment
    let isChild = environment["MARBLES_SCHEDULES_CHILD"] != nil
    // Five tasks at one tick: more orders than 40, so the count, not the whole tree, ends it.
    let exploration = await exploreSchedules(3) {
      let scheduler = TestScheduler()
      for value in 1...5 { scheduler.task { _ = value } }
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

  /// `MARBLES_EXPLORE=N` explores an XCTest test whose world opens at its first
  /// `TestScheduler()`: its run is a plain one, and when it ends the whole test runs again under
  /// the schedules (here one: the test has no two pieces of work ready at one tick). Checked in a
  /// child run of this test with the variable set; on 2026-11-29's `main` it was run once and a
  /// warning said it was not explored (before that stop, nothing was said).
  func testMarblesExploreExploresAnXCTestWhoseWorldOpensAtItsFirstScheduler() throws {
    let isChild = ProcessInfo.processInfo.environment["MARBLES_EXPLORE_XCTEST_CHILD"] != nil
    if isChild { print("first-scheduler test runs") }
    let scheduler = TestScheduler()
    let fired = Mutex(false)
    scheduler.schedule(after: .milliseconds(5)) { fired.withLock { $0 = true } }
    scheduler.run()
    XCTAssertTrue(fired.withLock { $0 })
    guard !isChild else { return }
    let (status, output) = try runToolBlocking(
      Self.command(
        running: "MarblesXCTests.XCTestPathTests/"
          + "testMarblesExploreExploresAnXCTestWhoseWorldOpensAtItsFirstScheduler"),
      environment: [
        "MARBLES_EXPLORE_XCTEST_CHILD": "1", "MARBLES_EXPLORE": "50", "MARBLES_REPLAY": "",
        "MARBLES_EXPLORE_EVERY_SCHEDULER": "",
      ])
    XCTAssertEqual(status, 0, output)
    XCTAssertFalse(output.contains("did not explore"), output)
    // The plain run, then schedule 0 — nothing else to explore.
    XCTAssertEqual(
      output.components(separatedBy: "first-scheduler test runs").count - 1, 2, output)
  }
}

/// `XCTAssert*` in an explored body fails its schedule — the exploration stops there and reports
/// it, with its seed and token, as Swift Testing's issues do — and `exploreSchedules` runs from a
/// `@MainActor` test method. Checked in child runs (the fixture's failures would fail this run).
/// On 2026-11-28's `main` the `XCTAssertEqual` failures were logged with no seed or token and the
/// exploration said every schedule passed; the `@MainActor` method did not compile.
final class ExploreSchedulesXCTAssertTests: XCTestCase {
  /// Runs fixture `test` in a child run: its exit status and output.
  func runFixture(_ test: String) throws -> (status: Int32, output: String) {
    try runToolBlocking(
      XCTestPathTests.command(running: "MarblesXCTests.ExploreSchedulesXCTAssertFixtures/" + test),
      environment: ["MARBLES_XCTASSERT_CHILD": "1"])
  }

  func testAnXCTAssertFailureFailsItsScheduleWithTheReport() throws {
    let (status, output) = try runFixture("testXCTAssertInAnExploration")
    XCTAssertNotEqual(status, 0, output)
    XCTAssertTrue(output.contains("failed; schedule 0 (FIFO) passes"), output)
    XCTAssertTrue(output.contains("XCTAssertEqual failed"), output)
    // Once as XCTest recorded it in the failing run, once in the report: the failing schedule is
    // not run again for its report (on 2026-11-28's `main`, a third copy).
    XCTAssertEqual(
      output.components(separatedBy: "XCTAssertEqual failed").count - 1, 2, output)
    XCTAssertTrue(output.contains("replay it: @Test(.exploringSchedules(replay: \"mrb2-"), output)
    XCTAssertTrue(output.contains("seed 0x5"), output)
  }

  /// A body whose work ran outside virtual time fails saying so in XCTest too (47.3).
  func testABodyWhoseWorkRanOutsideVirtualTimeFailsSayingSo() throws {
    let (status, output) = try runFixture("testABodyResumedFromAThreadOfItsOwn")
    XCTAssertNotEqual(status, 0, output)
    XCTAssertTrue(
      output.contains("part of the body ran outside virtual time, where no schedule chose"), output)
  }

  /// A body that only awaits is explored in a world per schedule, in XCTest too (47.1): its
  /// `async let` children's race is found.
  func testAnAwaitingBodyIsExplored() throws {
    let (status, output) = try runFixture("testAnAwaitingBody")
    XCTAssertNotEqual(status, 0, output)
    XCTAssertTrue(output.contains("failed; schedule 0 (FIFO) passes"), output)
    XCTAssertTrue(output.contains("XCTAssertEqual failed"), output)
  }

  func testExploreSchedulesRunsFromAMainActorMethod() throws {
    let (status, output) = try runFixture("testOnTheMainActor")
    XCTAssertNotEqual(status, 0, output)
    XCTAssertTrue(output.contains("failed; schedule 0 (FIFO) passes"), output)
    XCTAssertTrue(output.contains("the main actor's count"), output)
  }
}

/// Run by ``ExploreSchedulesXCTAssertTests`` in child runs; each fails on purpose (it does nothing
/// in the suite's own run).
final class ExploreSchedulesXCTAssertFixtures: XCTestCase {
  static var isChild: Bool { ProcessInfo.processInfo.environment["MARBLES_XCTASSERT_CHILD"] != nil }

  func testXCTAssertInAnExploration() async {
    guard Self.isChild else { return }
    await exploreSchedules(50, seed: 5) {
      let scheduler = TestScheduler()
      let subject = Subject<String, Never>()
      let received = scheduler.record(subject)
      scheduler.task { subject.sendNext("a") }
      scheduler.task { subject.sendNext("b") }
      scheduler.run()
      XCTAssertEqual(received.values, ["a", "b"])
    }
  }

  func testABodyResumedFromAThreadOfItsOwn() async {
    guard Self.isChild else { return }
    await exploreSchedules(50, seed: 5) {
      let value = await Task {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
          // NB: after a moment, so that the task has suspended.
          Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.05)
            continuation.resume(returning: 1)
          }
        }
      }.value
      XCTAssertEqual(value, 1)
    }
  }

  func testAnAwaitingBody() async {
    guard Self.isChild else { return }
    await exploreSchedules(50, seed: 5) {
      let log = await twoSleepingChildrenAppend()
      XCTAssertEqual(log, ["first", "second"])
    }
  }

  @MainActor var count = 0

  @MainActor func testOnTheMainActor() async {
    guard Self.isChild else { return }
    await exploreSchedules(50, seed: 5) {
      self.count = 0
      let scheduler = TestScheduler()
      let log = Mutex<[String]>([])
      scheduler.task { log.withLock { $0.append("a") } }
      scheduler.task { log.withLock { $0.append("b") } }
      scheduler.run()
      self.count += log.withLock { $0 } == ["a", "b"] ? 1 : 0
      XCTAssertEqual(self.count, 1, "the main actor's count")
    }
  }
}
