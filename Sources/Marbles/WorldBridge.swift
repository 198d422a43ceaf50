import Dispatch
package import MarbleTesting
@_spi(Internals) import Signals
import Testing
import XCTest

/// How `MarbleTesting` reaches the test framework that runs it: which test is running, how to
/// report on it from any thread, and when an XCTest test case ends. `MarbleTesting` finds this
/// type by name the first time it needs it (`TestFramework`); nothing is registered when the
/// process loads.
package enum WorldBridge: TestFrameworkBridge {
  package static var runningTest: RunningTest? {
    if let test = Test.current {
      let testCase = Test.Case.current.map { "\($0)" } ?? ""
      return .swiftTesting("\(test.id)|\(testCase)")
    }
    return XCTestWatcher.shared.runningTest
  }

  /// A reporter in the test's own context where a Swift Testing test runs (its issues need the
  /// test's task locals); elsewhere — XCTest, which records from any thread, or no test at all —
  /// one that reports where it is called, with nothing made per world.
  package static func makeReporter() -> any WorldReporter {
    Test.current != nil ? ContextReporter() : DirectReporter()
  }

  package static func closeWhenTestEnds(_ world: World, _ test: RunningTest) {
    if case .xcTest = test { XCTestWatcher.shared.close(world, whenEnds: test) }
  }

  package static func exploreTheRunningTest(
    _ count: Int, at site: SchedulerSite, runningItFirstWith runHere: () -> Void
  ) -> Bool {
    XCTestExploration.exploreTheRunningTest(count, at: site, runningItFirstWith: runHere)
  }

  package static func exploreWhenTheTestEnds(_ count: Int, at site: SchedulerSite) -> Bool {
    XCTestExploration.exploreWhenTheTestEnds(count, at: site)
  }

  package static func report(_ message: String, at site: SchedulerSite) {
    SourceSite(fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
      .report(message)
  }
}
