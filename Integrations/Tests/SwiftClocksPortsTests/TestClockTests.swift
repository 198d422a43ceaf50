import ConcurrencyExtras
import MarbleTesting
import Marbles
import Testing

/// pointfreeco/swift-clocks 1.1.1, `Tests/ClocksTests/TestClocksTests.swift` (`TestClockTests`),
/// ported to a Marbles `TestScheduler` by the rules in `Integrations/README.md` ("Porting
/// swift-clocks' TestClock tests"): their `Task { }`s are kept as written — the scheduler drives
/// the tasks a test starts — and only the clock's own calls become the scheduler's.
///
/// Each test names the original it ports; the test bodies keep the original's statements in the
/// original's order.
@Suite struct TestClockTests {
  // `let clock = TestClock()`
  let scheduler = TestScheduler()
  var clock: MarbleTesting.TestClock { scheduler.clock }

  /// Their `tearDown`: `try await self.clock.checkSuspension()` after every test.
  func checkSuspension() -> Bool {
    scheduler.advance(by: 0)
    return !scheduler.hasScheduledWork
  }

  /// `testAdvanceWithReentrantUnitsOfWork`
  @Test func advanceWithReentrantUnitsOfWork() async throws {
    let task = Task {
      var count = 0
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      return count
    }

    scheduler.advance(by: .seconds(5))
    let ticks = try await task.value
    #expect(ticks == 5)
    #expect(checkSuspension())
  }

  /// `testRun` (its `Task.sleep(for: .seconds(0.1))`, which lets the task start in real time, is
  /// `advance(by: 0)`)
  @Test func run() async throws {
    let isFinished = ActorIsolated(false)
    Task {
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      await isFinished.setValue(true)
    }
    scheduler.advance(by: 0)

    var checkIsFinished = await isFinished.value
    #expect(checkIsFinished == false)

    scheduler.run()
    checkIsFinished = await isFinished.value
    #expect(checkIsFinished == true)
    #expect(checkSuspension())
  }

  /// `testRunWithTimeout` (Darwin and DEBUG only there, with `XCTExpectFailure`): an endless
  /// sleeper makes their `run(timeout:)` fail after a second of real time; here `run()` stops at
  /// the step limit and says so, and a later `run()` goes on.
  @Test func runWithTimeout() async throws {
    let scheduler = TestScheduler(stepLimit: 100)
    let clock = scheduler.clock
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    let isRunning = ActorIsolated(true)
    Task {
      continuation.finish()
      while await isRunning.value {
        try await clock.sleep(for: .seconds(1))
      }
    }
    scheduler.advance(by: 0)
    for await _ in stream {}
    let result = scheduler.run()
    #expect(result.failure?.kind == .stepLimitExceeded)
    await isRunning.setValue(false)
    #expect(scheduler.run().isComplete)
    #expect(scheduler.takeUnreportedFailures().map(\.kind) == [.stepLimitExceeded])
  }

  /// `testRunMultipleUnitsOfWork` (their `clock.timer(interval:)` is written out: a task that
  /// sleeps a second ten times; the wait for the task to start is `advance(by: 0)`)
  @Test func runMultipleUnitsOfWork() async {
    let timerStarted = LockIsolated(false)
    let task = Task {
      timerStarted.withValue { $0 = true }
      var ticks = 0
      for _ in 0..<10 {
        guard (try? await self.clock.sleep(for: .seconds(1))) != nil else { break }
        ticks += 1
      }
      return ticks
    }

    scheduler.advance(by: 0)
    #expect(timerStarted.withValue { $0 })
    scheduler.run()
    let ticks = await task.value
    #expect(ticks == 10)
    #expect(checkSuspension())
  }

  /// `testRunWithReentrantUnitsOfWork`
  @Test func runWithReentrantUnitsOfWork() async throws {
    let taskStarted = LockIsolated(false)
    let task = Task {
      taskStarted.withValue { $0 = true }
      var count = 0
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      count += 1
      return count
    }

    scheduler.advance(by: 0)
    #expect(taskStarted.withValue { $0 })
    scheduler.run()
    let ticks = try await task.value
    #expect(ticks == 5)
    #expect(checkSuspension())
  }

  /// `testCheckScheduledWork`
  @Test func checkScheduledWork() async throws {
    Task { try await self.clock.sleep(for: .seconds(1)) }

    #expect(!checkSuspension(), "a task asleep on the clock is suspended work")
    scheduler.advance(by: .seconds(1))
    #expect(checkSuspension())
  }

  /// `testCooperativeCancellation`
  @Test func cooperativeCancellation() async {
    actor DidFinish {
      var value = false
      func finish() { self.value = true }
    }
    let didFinish = DidFinish()
    let task = Task {
      try await self.clock.sleep(for: .seconds(1))
      await didFinish.finish()
    }

    task.cancel()
    scheduler.run()

    let actualDidFinish = await didFinish.value
    #expect(actualDidFinish == false)
    #expect(checkSuspension())
  }

  /// `testCancellationRemovesScheduledItem`
  @Test func cancellationRemovesScheduledItem() async throws {
    let (stream, continuation) = AsyncStream<Never>.makeStream()

    let task = Task {
      continuation.finish()
      try await self.clock.sleep(for: .seconds(1))
    }

    scheduler.advance(by: 0)
    for await _ in stream {}
    await Task.yield()
    task.cancel()

    #expect(checkSuspension())
    #expect(scheduler.now == 0, "the cancelled sleep never moved the clock")
  }

  /// `testNow`
  @Test func now() async throws {
    let task = Task {
      try await self.clock.sleep(for: .seconds(5))
    }
    let start = self.clock.now
    scheduler.advance(by: .seconds(5))
    #expect(start.advanced(by: .seconds(5)) == self.clock.now)
    try await task.value
    #expect(checkSuspension())
  }

  /// `testRunSorting` (the test's wait for the second child to start is `advance(by: 0)`; the
  /// wait for the first, inside the driven task, is kept: the scheduler drives it)
  @Test func runSorting() async throws {
    let secondTaskStarted = LockIsolated(false)
    let task = Task {
      try await withThrowingTaskGroup(of: Int.self, returning: [Int].self) { group in
        let firstTaskStarted = LockIsolated(false)
        group.addTask {
          firstTaskStarted.withValue { $0 = true }
          try await self.clock.sleep(for: .seconds(2))
          return 2
        }
        while !firstTaskStarted.withValue(\.self) { await Task.yield() }
        group.addTask {
          secondTaskStarted.withValue { $0 = true }
          try await self.clock.sleep(for: .seconds(1))
          return 1
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
    }

    scheduler.advance(by: 0)
    #expect(secondTaskStarted.withValue { $0 })
    scheduler.run()
    let values = try await task.value

    #expect(values == [1, 2])
    #expect(checkSuspension())
  }

  /// `testSleepUntilExactlyNow`
  @Test func sleepUntilExactlyNow() async throws {
    let scheduler = scheduler
    Task {
      try await Task.sleep(for: .seconds(1))
      scheduler.advance(by: 0)
    }
    try await clock.sleep(until: clock.now)
  }
}

/// Their test target's `Internal/ActorIsolated.swift`: a value an actor guards (ConcurrencyExtras'
/// own `ActorIsolated`, which their tests do not use, is deprecated).
actor ActorIsolated<Value: Sendable> {
  var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func setValue(_ newValue: Value) {
    value = newValue
  }
}
