import Foundation
import MarbleTesting
import Marbles
import Signals
import Synchronization
import TestSupport
import XCTest

/// `MARBLES_EXPLORE=N` explores an XCTest test whose test case opens its worlds in `invokeTest()`
/// (issue 47.6): each test runs once per schedule, in a fresh instance of its test case and a world
/// of its own; the failing schedule is reported at the `invokeTest()` line with a token that
/// `MARBLES_REPLAY` replays. Checked in child runs (the fixture's race fails). On 2026-11-29's
/// `main` the test ran once, in FIFO order, passed, and a warning said it was not explored.
final class ExploreTheWholeXCTestTests: XCTestCase {
  /// Runs fixture `test` in a child run with `environment`: its exit status and output.
  func runFixture(_ test: String, _ environment: [String: String]) throws -> (
    status: Int32, output: String
  ) {
    try runToolBlocking(
      XCTestPathTests.command(running: "MarblesXCTests.ExploreTheWholeXCTestFixture/" + test),
      environment: environment.merging([
        "MARBLES_WHOLE_XCTEST_CHILD": "1", "MARBLES_EXPLORE_EVERY_SCHEDULER": "",
        "MARBLES_SCHEDULES": "",
      ]) { mine, _ in mine })
  }

  func testTheRaceOfATestThatAwaitsIsFoundAndReplayed() throws {
    // Without the variable: one run, in FIFO order, which passes.
    let plain = try runFixture(
      "testTwoChildrenRace", ["MARBLES_EXPLORE": "", "MARBLES_REPLAY": ""])
    XCTAssertEqual(plain.status, 0, plain.output)
    XCTAssertEqual(plain.output.components(separatedBy: "fixture run").count - 1, 1, plain.output)

    let explored = try runFixture(
      "testTwoChildrenRace", ["MARBLES_EXPLORE": "50", "MARBLES_REPLAY": ""])
    XCTAssertNotEqual(explored.status, 0, explored.output)
    XCTAssertTrue(explored.output.contains(" of 50 ("), explored.output)
    XCTAssertTrue(explored.output.contains("failed; schedule 0 (FIFO) passes"), explored.output)
    // At the `invokeTest()` line, where the test case opens its worlds.
    XCTAssertTrue(
      explored.output.contains(
        "ExploreTheWholeXCTestTests.swift:\(ExploreTheWholeXCTestFixture.invokeTestLine):"),
      explored.output)
    XCTAssertTrue(explored.output.contains("XCTAssertEqual failed"), explored.output)
    XCTAssertFalse(explored.output.contains("did not explore"), explored.output)
    let marker = "replay it: MARBLES_REPLAY=\""
    let after = try XCTUnwrap(explored.output.components(separatedBy: marker).dropFirst().first)
    let token = String(after.prefix { $0 != "\"" })
    XCTAssertTrue(token.hasPrefix("mrb2-"), explored.output)
    XCTAssertTrue(
      explored.output.contains(
        "with this test alone (`swift test --filter "
          + "ExploreTheWholeXCTestFixture/testTwoChildrenRace`)"), explored.output)

    // The token replays the failing order: one run, which fails following it.
    let replayed = try runFixture(
      "testTwoChildrenRace", ["MARBLES_EXPLORE": "", "MARBLES_REPLAY": token])
    XCTAssertNotEqual(replayed.status, 0, replayed.output)
    XCTAssertTrue(
      replayed.output.contains("the replayed schedule failed, following its token"),
      replayed.output)
    XCTAssertEqual(
      replayed.output.components(separatedBy: "fixture run").count - 1, 1, replayed.output)
  }

  /// Correct code passes every schedule; each run is a fresh instance of the test case, set up and
  /// torn down, in a world of its own.
  func testEachScheduleRunsAFreshTestCaseSetUpAndTornDown() throws {
    let (status, output) = try runFixture(
      "testCorrectCodePasses", ["MARBLES_EXPLORE": "50", "MARBLES_REPLAY": ""])
    XCTAssertEqual(status, 0, output)
    let runs = output.split(separator: "\n").filter { $0.hasPrefix("fixture run") }
    // Two children that sleep to one tick, and the test: more than one order, fewer than 50.
    XCTAssertGreaterThan(runs.count, 1, output)
    XCTAssertLessThan(runs.count, 50, output)
    for (index, run) in runs.enumerated() {
      XCTAssertEqual(
        String(run), "fixture run \(index + 1): set up \(index + 1), this instance's runs 1",
        output)
    }
    XCTAssertEqual(
      output.components(separatedBy: "fixture torn down").count - 1, runs.count, output)
  }
}

extension ExploreTheWholeXCTestTests {
  /// Record mode keeps its rule: an explored XCTest test records from schedule 0 alone, never
  /// from another schedule's rare order (a scratch file stands for the source file).
  func testRecordModeWritesFromScheduleZeroAlone() throws {
    let folder = makeScratchFolder("whole-xctest-record")
    defer { removeScratchFolder(folder) }
    let path = folder + "/\(ExploreTheWholeXCTestRecordingFixture.file)"
    writeFile("assertMarbles(recorder, \"(ab)\")\n", to: path)
    let (status, output) = try runToolBlocking(
      XCTestPathTests.command(
        running: "MarblesXCTests.ExploreTheWholeXCTestRecordingFixture/testTwoTasksSend"),
      environment: [
        "MARBLES_WHOLE_XCTEST_CHILD": "1", "MARBLES_WHOLE_XCTEST_FOLDER": folder,
        "MARBLES_EXPLORE": "20", "MARBLES_RECORD": "failed", "MARBLES_REPLAY": "",
        "MARBLES_EXPLORE_EVERY_SCHEDULER": "", "MARBLES_SCHEDULES": "",
      ])
    XCTAssertNotEqual(status, 0, output)
    XCTAssertTrue(output.contains("failed; schedule 0 (FIFO) passes"), output)
    XCTAssertTrue(output.contains("(ba)"), output)
    XCTAssertEqual(readFile(path), "assertMarbles(recorder, \"(ab)\")\n", output)
  }
}

/// Run by `ExploreTheWholeXCTestTests` in a process of its own (it does nothing in the suite's
/// own run): recording into the folder its parent gives.
final class ExploreTheWholeXCTestRecordingFixture: XCTestCase {
  static let file: StaticString = "record-whole-xctest.swift"
  static let folder = ProcessInfo.processInfo.environment["MARBLES_WHOLE_XCTEST_FOLDER"]

  override func invokeTest() {
    SourceRecorder.$folder.withValue(Self.folder) {
      withVirtualTime { _ in super.invokeTest() }
    }
  }

  /// Two tasks that send at one tick: FIFO gives "(ab)", the other order "(ba)".
  func testTwoTasksSend() {
    guard Self.folder != nil else { return }
    let scheduler = TestScheduler.current!
    let subject = Subject<String, Never>()
    let recorder = scheduler.record(subject)
    scheduler.task { subject.sendNext("a") }
    scheduler.task { subject.sendNext("b") }
    scheduler.run()
    assertMarbles(
      recorder, "(ab)", fileID: "X/File.swift", filePath: Self.file, line: 1, column: 14)
  }
}

/// Run by `ExploreTheWholeXCTestTests` in processes of their own (they do nothing in the suite's
/// own run).
final class ExploreTheWholeXCTestFixture: XCTestCase {
  static let invokeTestLine = #line + 1
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  static let isChild = ProcessInfo.processInfo.environment["MARBLES_WHOLE_XCTEST_CHILD"] != nil
  static let runs = Mutex(0)
  static let setUps = Mutex(0)
  var instanceRuns = 0

  override func setUp() {
    Self.setUps.withLock { $0 += 1 }
  }

  override func tearDown() {
    if Self.isChild { print("fixture torn down") }
  }

  /// Notes a run of the test on standard output.
  func noteTheRun() {
    instanceRuns += 1
    let run = Self.runs.withLock { runs -> Int in
      runs += 1
      return runs
    }
    let setUps = Self.setUps.withLock { $0 }
    print("fixture run \(run): set up \(setUps), this instance's runs \(instanceRuns)")
  }

  /// Two `async let` children that wake at the same tick and race to append to a log.
  func testTwoChildrenRace() async {
    guard Self.isChild else { return }
    noteTheRun()
    let log = await twoSleepingChildrenAppend()
    XCTAssertEqual(log, ["first", "second"])
  }

  final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  actor Counter {
    var value = 0
    func bump() { value += 1 }
  }

  /// The same children, adding to an actor: every order gives 2.
  func testCorrectCodePasses() async {
    guard Self.isChild else { return }
    noteTheRun()
    let counter = Counter()
    async let first: Void = {
      try? await Task.sleep(for: .milliseconds(10))
      await counter.bump()
    }()
    async let second: Void = {
      try? await Task.sleep(for: .milliseconds(10))
      await counter.bump()
    }()
    _ = await (first, second)
    let value = await counter.value
    XCTAssertEqual(value, 2)
  }
}

/// `MARBLES_EXPLORE=N` explores an XCTest test whose world opens in its body — at its first
/// `TestScheduler()`, or in `withVirtualTime` — once its plain run ends: the whole test runs
/// again under the schedules, each in a fresh instance of its test case, and the failing one is
/// reported at the first scheduler's line. On 2026-11-29's `main` each such test ran once, in FIFO
/// order, passed, and a warning said it was not explored.
extension ExploreTheWholeXCTestTests {
  func testATestWhoseWorldOpensAtItsFirstSchedulerIsExploredWhenItsRunEnds() throws {
    let (status, output) = try runBodyFixture("testTheFirstSchedulerOpensTheWorld")
    XCTAssertNotEqual(status, 0, output)
    XCTAssertTrue(output.contains(" of 50 ("), output)
    XCTAssertTrue(output.contains("ExploreTheWholeXCTestTests.swift:\(try schedulerLine(output)):"))
    XCTAssertTrue(output.contains("replay it: MARBLES_REPLAY=\"mrb2-"), output)
    XCTAssertFalse(output.contains("did not explore"), output)
    // The plain run, then the schedules up to the one that failed: more than two runs.
    XCTAssertGreaterThan(output.components(separatedBy: "body fixture run").count - 1, 2, output)
  }

  func testATestWhoseWorldOpensInWithVirtualTimeIsExploredWhenItsRunEnds() throws {
    let (status, output) = try runBodyFixture("testWithVirtualTimeInTheBody")
    XCTAssertNotEqual(status, 0, output)
    XCTAssertTrue(output.contains(" of 50 ("), output)
    XCTAssertTrue(output.contains("ExploreTheWholeXCTestTests.swift:\(try schedulerLine(output)):"))
    XCTAssertFalse(output.contains("did not explore"), output)
    // The assertion after the world is the one that fails: the whole test ran again.
    XCTAssertTrue(output.contains("XCTAssertEqual failed: (\"[\"b\", \"a\"]\")"), output)
  }

  /// The line of the first scheduler the fixture's run printed.
  func schedulerLine(_ output: String) throws -> Int {
    let marker = "the scheduler at line "
    let after = try XCTUnwrap(output.components(separatedBy: marker).dropFirst().first, output)
    return try XCTUnwrap(Int(after.prefix { $0.isNumber }), output)
  }

  /// Runs `test` of ``ExploreInTheBodyFixture`` in a child run under `MARBLES_EXPLORE=50`.
  func runBodyFixture(_ test: String) throws -> (status: Int32, output: String) {
    try runToolBlocking(
      XCTestPathTests.command(running: "MarblesXCTests.ExploreInTheBodyFixture/" + test),
      environment: [
        "MARBLES_WHOLE_XCTEST_CHILD": "1", "MARBLES_EXPLORE": "50", "MARBLES_REPLAY": "",
        "MARBLES_EXPLORE_EVERY_SCHEDULER": "", "MARBLES_SCHEDULES": "",
      ])
  }
}

/// Run by `ExploreTheWholeXCTestTests` in processes of their own (they do nothing in the suite's
/// own run): tests whose worlds open in their bodies.
final class ExploreInTheBodyFixture: XCTestCase {

  /// Two `async let` children that wake at the same tick and race to append to a log, in the
  /// world the test's first scheduler opens.
  func testTheFirstSchedulerOpensTheWorld() async {
    guard ExploreTheWholeXCTestFixture.isChild else { return }
    print("body fixture run, the scheduler at line \(#line + 1)")
    let scheduler = TestScheduler()
    let log = await twoSleepingChildrenAppend()
    XCTAssertEqual(log, ["first", "second"])
    XCTAssertEqual(scheduler.now, 10)
  }

  /// Two tasks at one tick in a `withVirtualTime` world, checked after it.
  func testWithVirtualTimeInTheBody() {
    guard ExploreTheWholeXCTestFixture.isChild else { return }
    let log = ExploreTheWholeXCTestFixture.Log()
    print("body fixture run, the scheduler at line \(#line + 1)")
    withVirtualTime { scheduler in
      scheduler.task { log.append("a") }
      scheduler.task { log.append("b") }
      scheduler.run()
    }
    XCTAssertEqual(log.all, ["a", "b"])
  }
}

extension ExploreTheWholeXCTestTests {
  /// A test case that makes a scheduler in a stored property and in `setUp`: each run under
  /// exploration makes them in its fresh instance, whose teardown closes their worlds (the first
  /// version of exploring at a test's end crashed here: the property's world was given to the
  /// test case whose teardown had run).
  func testATestCaseWithSchedulersInItsPropertiesIsExplored() throws {
    let (status, output) = try runToolBlocking(
      XCTestPathTests.command(running: "MarblesXCTests.SchedulerInAPropertyXCTests"),
      environment: [
        "MARBLES_EXPLORE": "5", "MARBLES_REPLAY": "", "MARBLES_EXPLORE_EVERY_SCHEDULER": "",
        "MARBLES_SCHEDULES": "",
      ])
    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(output.contains("tests, with 0 failures"), output)
    XCTAssertFalse(output.contains("did not explore"), output)
  }
}

extension ExploreTheWholeXCTestTests {
  /// A `@MainActor` test whose first line makes the scheduler, and which then calls an actor:
  /// its runs under exploration pass. (The switch onto the actor that ends the job that opened
  /// the world was taken for a resumption from outside virtual time, and failed the exploration.)
  func testAMainActorTestWhoseFirstLineMakesTheSchedulerIsExplored() throws {
    let (status, output) = try runToolBlocking(
      XCTestPathTests.command(
        running: "MarblesXCTests.ExploreInTheBodyFixture/testAMainActorTestCallsAnActor"),
      environment: [
        "MARBLES_WHOLE_XCTEST_CHILD": "1", "MARBLES_EXPLORE": "20", "MARBLES_REPLAY": "",
        "MARBLES_EXPLORE_EVERY_SCHEDULER": "", "MARBLES_SCHEDULES": "",
      ])
    XCTAssertEqual(status, 0, output)
    XCTAssertFalse(output.contains("outside virtual time"), output)
    XCTAssertGreaterThan(output.components(separatedBy: "main-actor fixture run").count - 1, 1)
  }
}

extension ExploreInTheBodyFixture {
  @MainActor func testAMainActorTestCallsAnActor() async throws {
    guard ExploreTheWholeXCTestFixture.isChild else { return }
    print("main-actor fixture run")
    let scheduler = TestScheduler()
    let counter = ExploreTheWholeXCTestFixture.Counter()
    for _ in 0..<3 { await counter.bump() }
    try await Task.sleep(for: .seconds(2))
    await counter.bump()
    let value = await counter.value
    XCTAssertEqual(value, 4)
    XCTAssertEqual(scheduler.now, 2000)
  }
}

extension ExploreTheWholeXCTestTests {
  /// A test whose plain run failed is not explored at its end: it has failed in the usual order,
  /// and its schedules would only fail it again (schedule 0 first), each failure twice.
  func testATestWhosePlainRunFailedIsNotExploredAgain() throws {
    let (status, output) = try runBodyFixture("testFailsInEveryOrder")
    XCTAssertNotEqual(status, 0, output)
    XCTAssertEqual(output.components(separatedBy: "failing fixture run").count - 1, 1, output)
    XCTAssertFalse(output.contains("schedule 0 (FIFO"), output)
  }
}

extension ExploreInTheBodyFixture {
  func testFailsInEveryOrder() {
    guard ExploreTheWholeXCTestFixture.isChild else { return }
    print("failing fixture run")
    let scheduler = TestScheduler()
    XCTAssertEqual(scheduler.now, 1)
  }
}

extension ExploreTheWholeXCTestTests {
  /// The first run of a test explored through `invokeTest()` is the test case XCTest made: a test
  /// that skips is reported skipped, as without exploring (its runs in fresh instances have no
  /// XCTest run to record a skip on: the test passed).
  func testATestThatSkipsIsReportedSkipped() throws {
    let (status, output) = try runFixture(
      "testSkips", ["MARBLES_EXPLORE": "50", "MARBLES_REPLAY": ""])
    XCTAssertEqual(status, 0, output)
    XCTAssertTrue(
      output.contains("Test Case 'ExploreTheWholeXCTestFixture.testSkips' skipped"), output)
  }
}

extension ExploreTheWholeXCTestFixture {
  func testSkips() throws {
    guard Self.isChild else { return }
    throw XCTSkip("skipped on purpose")
  }
}

extension ExploreTheWholeXCTestTests {
  /// A test whose plain run skipped it, after its world opened, is not explored at its end.
  func testATestWhosePlainRunSkippedIsNotExplored() throws {
    let (status, output) = try runBodyFixture("testSkipsInItsWorld")
    XCTAssertEqual(status, 0, output)
    XCTAssertEqual(output.components(separatedBy: "skipping fixture run").count - 1, 1, output)
    XCTAssertTrue(
      output.contains("Test Case 'ExploreInTheBodyFixture.testSkipsInItsWorld' skipped"), output)
  }
}

extension ExploreInTheBodyFixture {
  func testSkipsInItsWorld() throws {
    guard ExploreTheWholeXCTestFixture.isChild else { return }
    print("skipping fixture run")
    let scheduler = TestScheduler()
    scheduler.task {}
    scheduler.task {}
    scheduler.run()
    throw XCTSkip("skipped on purpose")
  }
}
