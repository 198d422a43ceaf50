public import MarbleTesting
public import Testing

/// The settings of the `.virtualTime` trait of a test that is explored: each schedule's world has
/// them.
struct VirtualTimeSettings: Sendable {
  var tick: Duration
  var stepLimit: Int
  var stallTimeout: Duration

  @TaskLocal static var current: VirtualTimeSettings?
}

/// A trait that runs each test in virtual time: its own world, opened before the test's body and
/// closed after it, with a scheduler reachable as ``/MarbleTesting/TestScheduler/current``.
///
/// ```swift
/// @Test(.virtualTime) func timesOut() async throws {
///   await #expect(throws: TimeoutError.self) {
///     try await withTimeout(.seconds(5)) { try await Task.sleep(for: .seconds(10)) }
///   }
///   #expect(TestScheduler.current?.now == 5_000)
/// }
///
/// @Suite(.virtualTime) struct RetryTests { … }   // every test of the suite
/// ```
///
/// The body is unchanged: every task it starts, every sleep and every reading of time is the
/// world's, and awaits drive (see `withVirtualTime`).
///
/// With ``ExploringSchedulesTrait`` beside it, or with `MARBLES_EXPLORE=N` in the environment
/// (every test that runs in a world explored under `N` schedules), the test is explored: each
/// schedule runs in a fresh world with these settings.
public struct VirtualTimeTrait: TestTrait, SuiteTrait, TestScoping {
  let tick: Duration
  let stepLimit: Int
  let stallTimeout: Duration

  /// On a suite, every test in it gets a world of its own.
  public var isRecursive: Bool { true }

  /// Runs `function` — one test case — inside `withVirtualTime`; a suite itself runs as it is.
  ///
  /// - Parameters:
  ///   - test: The test or suite.
  ///   - testCase: The test case, or `nil` for a suite.
  ///   - function: What to run.
  /// - Throws: What `function` throws.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    guard testCase != nil, !test.isSuite else { return try await function() }
    if ScheduleRun.current == nil {
      let settings = VirtualTimeSettings(
        tick: tick, stepLimit: stepLimit, stallTimeout: stallTimeout)
      // An explored test: its exploration opens a world per schedule, with these settings.
      if test.traits.contains(where: { $0 is ExploringSchedulesTrait }) {
        return try await VirtualTimeSettings.$current.withValue(settings) { try await function() }
      }
      // `MARBLES_EXPLORE=N`: every test that runs in a world is explored (`MARBLES_REPLAY`:
      // replayed).
      if ScheduleRun.exploresEveryTest {
        let count = ScheduleRun.exploreEveryTest ?? 1
        return await VirtualTimeSettings.$current.withValue(settings) {
          await ExploringSchedulesTrait.exploringSchedules(count).explore(test, function)
        }
      }
    }
    // NB: Swift Testing reports by file ID and line; the path (a `StaticString`, for XCTest) is
    // this file's.
    let location = test.sourceLocation
    try await withVirtualTime(
      tick: tick, stepLimit: stepLimit, stallTimeout: stallTimeout, fileID: location.fileID,
      line: UInt(location.line), column: UInt(location.column)
    ) { _ in
      try await function()
    }
  }
}

extension Trait where Self == VirtualTimeTrait {
  /// Runs each test in virtual time, with a 1 ms tick (see ``VirtualTimeTrait``).
  public static var virtualTime: Self {
    virtualTime()
  }

  /// Runs each test in virtual time with these settings (see ``VirtualTimeTrait``).
  ///
  /// - Parameters:
  ///   - tick: The virtual length of one tick; positive.
  ///   - stepLimit: How many steps one call may run.
  ///   - stallTimeout: How long, in real time, work may wait on something outside the world.
  public static func virtualTime(
    tick: Duration = .milliseconds(1), stepLimit: Int = TestScheduler.defaultStepLimit,
    stallTimeout: Duration = TestScheduler.defaultStallTimeout
  ) -> Self {
    VirtualTimeTrait(tick: tick, stepLimit: stepLimit, stallTimeout: stallTimeout)
  }
}
