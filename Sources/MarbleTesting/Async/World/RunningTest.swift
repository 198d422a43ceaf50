/// The test a world was opened for, as the test framework names it.
package enum RunningTest: Hashable, Sendable {
  /// A Swift Testing test case (its test's id and its case's, as text).
  case swiftTesting(String)
  /// An XCTest test case (its name).
  case xcTest(String)
}
