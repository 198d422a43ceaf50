import CMarbleRuntime
@_spi(Internals) import Signals

/// What a world asks of the test framework that runs it: which test is running, how to report on
/// it from any thread, and when it ends.
///
/// `MarbleTesting` imports no test framework; the `Marbles` module answers, through a type it
/// defines (``TestFrameworkBridge``), which is looked up by name at the first world — nothing runs
/// when the process loads. Without `Marbles` in the process, a world has no test: it closes with
/// its last scheduler, and its failures go to standard error — and in a process that runs tests,
/// which without `Marbles` would pass whatever failed, the first one stops the process, naming
/// the product its test target must link (``FailureReporter``).
package protocol TestFrameworkBridge {
  /// The test running on this task or thread, if any.
  static var runningTest: RunningTest? { get }

  /// A reporter bound to the test running here, usable from any thread: Swift Testing records
  /// its issues on that test.
  static func makeReporter() -> any WorldReporter

  /// Closes `world` when `test` ends (XCTest: its test case finishes).
  static func closeWhenTestEnds(_ world: World, _ test: RunningTest)

  /// Records `message` as a failure of the test running here, at `site`, in whichever test
  /// framework runs it.
  static func report(_ message: String, at site: SchedulerSite)

  /// Explores the test running here, whose whole run `withVirtualTime` at `site` was asked to
  /// run (an XCTest test case's `invokeTest()`): under `count` schedules, or the token of
  /// `MARBLES_REPLAY`, each run in a world of its own — the first by `runHere`, in the test case
  /// XCTest made, every later one in a fresh instance of it; and reports the schedule that failed
  /// at `site`.
  ///
  /// - Returns: `false` if it cannot run the test again (no XCTest test case runs here, or the
  ///   platform's XCTest does not let one be made afresh): nothing ran.
  static func exploreTheRunningTest(
    _ count: Int, at site: SchedulerSite, runningItFirstWith runHere: () -> Void
  ) -> Bool

  /// Explores the test running here when its run ends, for a test whose world opened in its
  /// body, whose first scheduler is at `site` (an XCTest test's, at its first `TestScheduler()` or
  /// in `withVirtualTime`): the run so far is a plain one; then, once its world is closed, the
  /// whole test runs again under `count` schedules (or the token of `MARBLES_REPLAY`), each run
  /// in a fresh instance of its test case and a world of its own, and the schedule that failed is
  /// reported at `site`.
  ///
  /// - Returns: `false` if it cannot run the test again (no XCTest test case runs here, or the
  ///   platform's XCTest does not let one be made afresh): nothing will run.
  static func exploreWhenTheTestEnds(_ count: Int, at site: SchedulerSite) -> Bool
}

/// Reports a world's failures on its test, from whichever thread finds them.
package protocol WorldReporter: Sendable {
  /// Records `message` as a failure of the test at `site`, and returns once it is recorded (or
  /// after a bounded wait).
  func report(_ message: String, at site: SchedulerSite)

  /// Records `message` as a failure of the test at `site`, as if `task` (which waits) recorded it
  /// where it is now — with its task-local bindings (``TaskLocals``): inside a `withKnownIssue`, a
  /// known issue.
  func report(_ message: String, at site: SchedulerSite, asIfBy task: WaitingTask)

  /// Records `message` as a warning of the test at `site` (it does not fail the test).
  func warn(_ message: String, at site: SchedulerSite)

  /// Runs `work` in the test's own context (Swift Testing: with its task locals), and returns
  /// once it ran (or after a bounded wait): for cancelling the test's task, which Swift Testing
  /// takes as cancelling the test. A reporter that has finished runs nothing.
  func run(_ work: @escaping @Sendable () -> Void)

  /// Ends the reporter once every report is recorded.
  func finish() async

  /// Ends the reporter without waiting.
  func finishSoon()
}

/// A task that waits while a report is made for it: its task-local bindings, read when this is
/// made — while nothing runs the task — so that the report may be recorded later, elsewhere.
package struct WaitingTask: Sendable {
  let bindings: TaskLocals.Snapshot

  init(_ task: MarblesJobRef) {
    bindings = TaskLocals.snapshot(of: task)
  }
}

package enum TestFramework {
  /// The bridge of the `Marbles` module (`Marbles.WorldBridge`), if the process has it.
  static var bridge: (any TestFrameworkBridge.Type)? { found.bridge }

  private struct Found: @unchecked Sendable {
    // NB: @unchecked: a metatype, set once.
    let bridge: (any TestFrameworkBridge.Type)?
  }

  private static let found = Found(
    bridge: _typeByName("7Marbles11WorldBridgeO") as? any TestFrameworkBridge.Type)

  /// The test running here, if the test framework says so.
  static var runningTest: RunningTest? {
    bridge?.runningTest
  }

  /// Whether this process runs tests, with or without `Marbles`: its executable is a test
  /// bundle's runner (`swift test`'s `…PackageTests.xctest` on Linux; on Apple platforms, written
  /// for and not run here, `xctest` and SwiftPM's `swiftpm-testing-helper`), or Xcode's
  /// configuration for tests hosted in an app is set.
  package static let processRunsTests: Bool = {
    let executable = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? ""
    return executable.lowercased().contains("xctest") || executable == "swiftpm-testing-helper"
      || Platform.environment("XCTestConfigurationFilePath") != nil
      || Platform.environment("XCTestBundlePath") != nil
  }()

  /// Whether this process is a test runner whose tests a world can know: never without
  /// `Marbles`, whose bridge knows them.
  static var isTestRunner: Bool {
    bridge != nil && processRunsTests
  }

  /// A reporter bound to the test running here.
  static func makeReporter() -> (any WorldReporter)? {
    bridge?.makeReporter()
  }

  static func closeWhenTestEnds(_ world: World, _ test: RunningTest) {
    bridge?.closeWhenTestEnds(world, test)
  }
}
