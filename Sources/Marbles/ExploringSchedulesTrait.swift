import MarbleTesting
public import Testing

/// A Swift Testing trait that runs a test under many schedules of its same-tick work (see
/// ``exploreSchedules(_:seed:replay:isolation:fileID:filePath:line:column:_:)``), or replays one:
///
/// ```swift
/// @Test(.exploringSchedules(200, seed: 42)) func twoWithdrawalsNeverOverdraw() async { … }
/// @Test(.exploringSchedules(replay: "mrb2-c-alfk-0.t2.2.5unw")) func twoWithdrawalsNeverOverdraw() async { … }
/// ```
///
/// The test's body runs once per schedule, each time afresh in a world of its own (the trait
/// implies ``VirtualTimeTrait``: the body's tasks, sleeps and awaits are virtual, and their
/// same-tick work is what the schedules order), and the failing schedule is reported once: each of its issues where it happened, the first with the order that failed drawn as lanes
/// and the token that replays it.
///
/// On a suite, every test of the suite is explored (`@Suite(.exploringSchedules(200))`); a test
/// with a trait of its own is explored by its own.
public struct ExploringSchedulesTrait: TestTrait, SuiteTrait, TestScoping, Equatable {
  /// How many schedules to run, schedule 0 (FIFO) included.
  public var count: Int
  /// Where the schedules come from; `nil` for `MARBLES_SCHEDULE_SEED` or a fresh seed.
  public var seed: UInt64?
  /// A failure's token, to run its schedule once instead.
  public var replay: String?

  /// On a suite, every test in it is explored.
  public var isRecursive: Bool { true }

  /// Runs the test's body once per schedule, and reports the schedule that failed.
  ///
  /// - Parameters:
  ///   - test: The test.
  ///   - testCase: The test case, if any.
  ///   - function: The test's body.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    // A suite runs as it is; its tests are explored one by one. A test with a trait of its own
    // besides its suite's is explored by its own, the last of them.
    let traits = test.traits.compactMap { $0 as? ExploringSchedulesTrait }
    let isOverridden = traits.lastIndex(of: self).map { $0 < traits.count - 1 } ?? false
    guard !test.isSuite, !isOverridden, ScheduleRun.current == nil else {
      return try await function()
    }
    await explore(test, function)
  }

  /// Explores `function`, the body of `test`, and reports the schedule that failed, if one did:
  /// each schedule in a world of its own.
  func explore(_ test: Test, _ function: @Sendable () async throws -> Void) async {
    let exploration = await ScheduleExploring.explore(
      count, seed: seed, replay: replay, reportingAt: test.sourceLocation
    ) {
      try await function()
    }
    if let failure = exploration.failure {
      if !failure.isReported {
        Issue.record(Comment(rawValue: failure.description), sourceLocation: test.sourceLocation)
      }
      if let picture = failure.picture {
        Attachment.record(
          picture, named: "\(test.name) schedule lanes.svg", sourceLocation: test.sourceLocation)
      }
    }
  }
}

extension Trait where Self == ExploringSchedulesTrait {
  /// Runs the test under `count` schedules of its same-tick work, from `seed`.
  ///
  /// - Parameters:
  ///   - count: How many schedules, schedule 0 (FIFO) included.
  ///   - seed: Where they come from; `nil` for `MARBLES_SCHEDULE_SEED` or a fresh seed.
  /// - Returns: The trait.
  public static func exploringSchedules(_ count: Int = 100, seed: UInt64? = nil) -> Self {
    ExploringSchedulesTrait(count: count, seed: seed, replay: nil)
  }

  /// Runs the test once, under the schedule a failure's token holds.
  ///
  /// - Parameter replay: The token (`mrb2-…`) from the failure's report.
  /// - Returns: The trait.
  public static func exploringSchedules(replay: String) -> Self {
    ExploringSchedulesTrait(count: 1, seed: nil, replay: replay)
  }
}
