import MarbleTesting
import Testing
import XCTest

/// Reports a failure at the caller's source location in whichever test framework is running.
///
/// Swift Testing is running when `Test.current` is set (it is task-local, so assertions must run on
/// the test's own task); otherwise the failure goes to XCTest. Calling the other framework's API would
/// be silently ignored, so the choice has to be made at run time.
func reportIssue(
  _ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt
) {
  if Test.current != nil {
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(
        fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column)))
  } else {
    XCTFail(message, file: filePath, line: line)
  }
}

/// Reports the scheduler's failures (a step limit hit, a refused concurrent run) that no assertion
/// has reported yet, each once.
func reportSchedulerFailures(
  _ scheduler: TestScheduler, fileID: String, filePath: StaticString, line: UInt, column: UInt
) {
  for failure in scheduler.takeUnreportedFailures() {
    reportIssue(
      "TestScheduler: \(failure)", fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
