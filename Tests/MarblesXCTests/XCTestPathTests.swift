import Foundation
import MarbleTesting
import Marbles
import Signals
import TestSupport
import XCTest

/// The XCTest path. Linux XCTest has no `XCTExpectFailure`, so this case overrides `recordFailure` to
/// capture the failures the assertions report instead of failing, and checks their text and line.
final class XCTestPathTests: XCTestCase {
  var captured: [(description: String, file: String, line: Int)] = []
  var capturing = false

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    if capturing {
      captured.append((description, filePath, lineNumber))
    } else {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  func capture(_ body: () -> Void) -> [(description: String, file: String, line: Int)] {
    captured = []
    capturing = true
    body()
    capturing = false
    return captured
  }

  func testAssertEventsReportsThroughXCTestAtTheCallersLine() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold(
      [.next(2, "a"), .next(5, "b"), .completed(7)] as [Recorded<Event<String, TestError>>])
    let subscriber = scheduler.record(cold)
    scheduler.run()

    let line = #line + 2
    let failures = capture {
      assertEvents(subscriber, [.next(2, "a"), .next(4, "b"), .completed(7)])
    }

    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.line, line)
    XCTAssertEqual(failures.first?.file, #filePath)
    XCTAssertEqual(
      failures.first?.description,
      """
      failed - recorded events differ at tick 4
        expected  [next("a") @ 2, next("b") @ 4, completed @ 7]
        actual    [next("a") @ 2, next("b") @ 5, completed @ 7]
        expected next("b") at tick 4, got nothing; next("b") came at tick 5
      """)
  }

  func testAStepThatCannotBeSatisfiedFailsThroughXCTestAtItsLine() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("-a-|"))
    XCTAssertEqual(results.nextValue(), "a")
    let line = #line + 2
    let failures = capture {
      XCTAssertNil(results.nextValue())
    }
    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.line, line)
    XCTAssertEqual(
      failures.first?.description, "failed - nextValue() expected a value, got completion at tick 3"
    )
  }

  func testRecordModeRewritesTheLiteralAndTheFailureSaysSo() throws {
    let folder = makeScratchFolder("record-xctest")
    defer { removeScratchFolder(folder) }
    writeFile("func testX() {\n  assertMarbles(recorder, \"\")\n}\n", to: folder + "/X.swift")
    let scheduler = TestScheduler()
    let recorder = scheduler.record(try scheduler.cold("-a-b|"))
    scheduler.run()
    let failures = capture {
      SourceRecorder.$folder.withValue(folder) {
        withMarbleRecording(.failed) {
          assertMarbles(recorder, "", filePath: "X.swift", line: 2, column: 16)
        }
      }
    }
    XCTAssertEqual(
      readFile(folder + "/X.swift"), "func testX() {\n  assertMarbles(recorder, \"-a-b|\")\n}\n")
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(
      failures.first?.description.hasSuffix(
        "recorded `-a-b|` at MarblesXCTests/XCTestPathTests.swift:2; re-run without MARBLES_RECORD")
        == true, failures.first?.description ?? "")
  }

  func testPassingAssertionsReportNothing() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold([.next(1, "a")] as [Recorded<Event<String, TestError>>])
    let subscriber = scheduler.record(cold)
    scheduler.run()
    let failures = capture {
      assertEvents(subscriber, [.next(1, "a")])
      assertSubscriptions(cold, [Subscription(0)])
    }
    XCTAssertTrue(failures.isEmpty)
  }

  func testAssertMarblesReportsThroughXCTestAtTheCallersLine() throws {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(try scheduler.cold("--a--b-|"))
    scheduler.run()
    let line = #line + 1
    let failures = capture { assertMarbles(subscriber, "--a-b--|") }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(
      failures.first?.description,
      """
      failed - marbles differ at frame 4
        expected  --a-b--|
        actual    --a--b-|
                      ^ expected next("b") at frame 4, got nothing; next("b") came at frame 5
      """)
  }

  func testAssertMarblesWithInnerMarblesReportsThroughXCTestAtTheCallersLine() throws {
    let scheduler = TestScheduler()
    let groups = scheduler.recordHigherOrder(
      try scheduler.cold("-a-b-A-|").groupBy { $0.lowercased() })
    scheduler.run()
    let passing = capture {
      assertMarbles(groups, "-x-y---|", inner: ["x": "a---A-|", "y": "b---|"])
    }
    XCTAssertTrue(passing.isEmpty)
    let line = #line + 2
    let failures = capture {
      assertMarbles(groups, "-x-y---|", inner: ["x": "a--A--|", "y": "b---|"])
    }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(
      failures.first?.description,
      """
      failed - inner signal `x` sent at frame 1 differs at its frame 3
        outer     -x-y---|
        expected   a--A--|
        actual     a---A-|
                      ^ expected next("A") at frame 3, got nothing; next("A") came at frame 4
      """)
  }

  func testAssertTableReportsThroughXCTestAtTheCallersLine() {
    let line = #line + 2
    let failures = capture {
      assertTable(
        """
        src   cold  -a|
        sub1  gets  --a|
        """
      ) { $0["src"] }
    }
    XCTAssertEqual(failures.map(\.line), [line])
    XCTAssertEqual(
      failures.first?.description,
      """
      failed - table failed
      src   cold  -a|
      sub1  gets  --a|
             was  -a|
                   ^

      sub1 got unexpected `a` at frame 1 (expected at frame 2)
      """)
  }

  func testFlushReportsEachExpectationAtItsOwnLineThroughXCTest() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a|")
    let first = #line + 1
    scheduler.expect(source).toBe("-b|")
    let second = #line + 1
    scheduler.expectSubscriptions(source).toBe("^-!", "^-!")
    let failures = capture { scheduler.flush() }
    XCTAssertEqual(failures.map(\.line), [first, second])
  }
}

/// Off the test's thread, an assertion still fails the XCTest case in progress.
final class XCTestOffThreadTests: XCTestCase {
  var captured: [String] = []
  private let lock = NSLock()

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    lock.lock()
    captured.append(description)
    lock.unlock()
  }

  func testAFailingAssertionOnAnotherThreadFailsTheTest() throws {
    let done = expectation(description: "asserted")
    Thread {
      let scheduler = TestScheduler()
      let recorder = scheduler.record(try! scheduler.cold("-a|"))
      scheduler.run()
      assertMarbles(recorder, "-b|")
      done.fulfill()
    }.start()
    wait(for: [done], timeout: 10)
    lock.lock()
    defer { lock.unlock() }
    XCTAssertEqual(captured.count, 1)
    XCTAssertTrue(captured.first?.contains("marbles differ at frame 1") == true)
  }
}
