@_spi(Internals) import Signals

/// Runs `body` in virtual time — a world of its own, whose first scheduler `body` gets — and
/// closes the world when `body` returns.
///
/// Inside, every task `body` starts, every sleep and every reading of time is the scheduler's,
/// and awaits drive: when `body` waits and nothing of its world is ready, the scheduler's clock
/// moves to the next due work, so code awaits as it would in production, in no real time:
///
/// ```swift
/// try await withVirtualTime { scheduler in
///   let value = try await withTimeout(.seconds(5)) { try await api.fetch() }
///   #expect(scheduler.now == 1_200)   // the fetch's 1.2 s, with a 1 ms tick
/// }
/// ```
///
/// Called where a world is open already (inside `@Test(.virtualTime)`, or another
/// `withVirtualTime`), it joins that world: it makes a scheduler on top of the world's stack,
/// starting at the world's time (its own ticks count from there, and no reading goes back), and
/// takes it off when `body` returns, the world keeping the time it reached.
///
/// - Parameters:
///   - tick: The virtual length of one tick; positive.
///   - stepLimit: How many steps one call may run (see ``TestScheduler/stepLimit``).
///   - stallTimeout: How long, in real time, work of the world may wait on something outside it.
///   - fileID: The caller's file ID (filled in for you), for reports.
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - function: The caller's name (filled in for you). Unused by this form: the synchronous
///     one's marks an XCTest test's whole run; here it keeps the two forms' defaults alike, so
///     that a synchronous `body` in an `async` function calls the synchronous form.
///   - isolation: The actor `body` runs on: the caller's (filled in for you), so that a
///     `@MainActor` test's body stays on the main actor.
///   - body: The code to run in virtual time, given the world's scheduler.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withVirtualTime<Result>(
  tick: Duration = .milliseconds(1), stepLimit: Int = TestScheduler.defaultStepLimit,
  stallTimeout: Duration = TestScheduler.defaultStallTimeout,
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column, function: String = #function,
  isolation: isolated (any Actor)? = #isolation,
  _ body: (TestScheduler) async throws -> Result
) async rethrows -> Result {
  let opened = World.current == nil ? World.openScope() : nil
  let scheduler = TestScheduler(
    tick: tick, stepLimit: stepLimit, stallTimeout: stallTimeout, fileID: fileID,
    filePath: filePath, line: line, column: column)
  defer { withExtendedLifetime(scheduler) {} }
  guard let opened else { return try await body(scheduler) }
  // From here on the body runs on the world's loop: a suspension hands the test's task to it.
  await Task.yield()
  do {
    let result = try await body(scheduler)
    await opened.closeScope()
    return result
  } catch {
    await opened.closeScope()
    throw error
  }
}

/// Runs `body` in virtual time, synchronously — a world of its own, whose first scheduler
/// `body` gets — and closes the world when `body` returns.
///
/// Inside, every task `body` starts, every sleep and every reading of time is the scheduler's;
/// tasks run when `body` drives the scheduler (`advance`, `run`, `flush`, step by step). For a
/// test that awaits, use the `async` form, or `@Test(.virtualTime)`.
///
/// In an XCTest test case's `invokeTest()`, around `super.invokeTest()`, it puts each test of the
/// class in a world of its own, and there `MARBLES_EXPLORE=N` explores the test: it runs
/// `N` times, each under a schedule of its same-tick work and in a world of its own — the first
/// time in the test case XCTest made, every later time in a fresh instance of it, set up and torn
/// down — and the schedule that fails is reported here with the token that replays it
/// (`MARBLES_REPLAY`).
///
/// - Parameters:
///   - tick: The virtual length of one tick; positive.
///   - stepLimit: How many steps one call may run (see ``TestScheduler/stepLimit``).
///   - stallTimeout: How long, in real time, work of the world may wait with nothing driving it.
///   - fileID: The caller's file ID (filled in for you), for reports.
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - function: The caller's name (filled in for you): in `invokeTest()`, `body` is the whole
///     run of an XCTest test.
///   - body: The code to run in virtual time, given the world's scheduler.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withVirtualTime<Result>(
  tick: Duration = .milliseconds(1), stepLimit: Int = TestScheduler.defaultStepLimit,
  stallTimeout: Duration = TestScheduler.defaultStallTimeout,
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column, function: String = #function,
  _ body: (TestScheduler) throws -> Result
) rethrows -> Result {
  // `MARBLES_EXPLORE=N` (or `MARBLES_REPLAY`): an XCTest test's whole run is explored — run
  // again per schedule by the bridge, each run coming back here under its schedule.
  if function == "invokeTest()", Result.self == Void.self, ScheduleRun.exploresEveryTest,
    World.current == nil, ScheduleRun.current == nil, let bridge = TestFramework.bridge,
    bridge.exploreTheRunningTest(
      ScheduleRun.exploreEveryTest ?? 1,
      at: SchedulerSite(fileID: fileID, filePath: filePath, line: line, column: column),
      runningItFirstWith: {
        // The first run, in the test case XCTest made: `body` in a world of its own, under the
        // run's schedule. (`invokeTest()` does not throw.)
        _ = try? withVirtualTime(
          tick: tick, stepLimit: stepLimit, stallTimeout: stallTimeout, fileID: fileID,
          filePath: filePath, line: line, column: column, function: "the first run", body)
      })
  {
    // NB: `Result` is `Void`, checked above.
    return () as! Result
  }
  let opened = World.current == nil ? World.openScope() : nil
  let scheduler = TestScheduler(
    tick: tick, stepLimit: stepLimit, stallTimeout: stallTimeout, fileID: fileID,
    filePath: filePath, line: line, column: column)
  defer {
    withExtendedLifetime(scheduler) {}
    opened?.closeScopeNow()
  }
  return try body(scheduler)
}

extension World {
  /// Closes a world `withVirtualTime` opened, after running what is ready, and waits for its
  /// reports to be recorded.
  func closeScope() async {
    runWhatIsReady()
    close(finishingReports: false)
    await reporter?.finish()
  }

  /// Closes a world `withVirtualTime` opened, after running what is ready.
  func closeScopeNow() {
    runWhatIsReady()
    close()
  }
}

extension World {
  /// How many jobs a closing world runs at most before it closes: a job that makes another ready
  /// for ever does not hold the close up.
  static let closingSteps = 10_000

  /// Runs the jobs of the world that are ready, one at a time, until none is (or
  /// ``closingSteps`` ran): called by the root's own code as the world closes, when nothing else
  /// of the world runs. Time does not move.
  func runWhatIsReady() {
    guard state.withLock({ !$0.isClosed && !$0.hasGivenUp }) else { return }
    var steps = 0
    while steps < Self.closingSteps {
      let drivers = drivers
      guard let driver = drivers.first(where: { $0.readyJobCount > 0 }),
        let job = driver.takeReadyJob()
      else { return }
      let id = job.taskID
      if isRoot(id) {
        // The root runs this: a job of its own is not to be run here.
        driver.putBack(job)
        return
      }
      driver.drain { _ = driver.run(job) }
      driver.forgetIfComplete(id)
      steps += 1
    }
  }
}
