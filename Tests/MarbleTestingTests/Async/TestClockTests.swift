import MarbleTesting
import Signals
import Synchronization
import Testing

/// `scheduler.clock`: a `Clock` on virtual time.
@Suite struct TestClockTests {
  @Test func nowMovesByOneTickPerTick() {
    let scheduler = TestScheduler(tick: .milliseconds(10))
    let clock = scheduler.clock
    #expect(clock.now == TestClock.Instant(offset: .zero))
    scheduler.advance(by: 3)
    #expect(clock.now == TestClock.Instant(offset: .milliseconds(30)))
    #expect(scheduler.clock.now == clock.now)
    #expect(clock.minimumResolution == .milliseconds(10))
  }

  @Test func aSleepEndsExactlyAtItsDeadlineRoundedUp() {
    let scheduler = TestScheduler(tick: .milliseconds(10))
    let log = Log<String>()
    scheduler.task {
      log.stamp("start", scheduler)
      try await scheduler.clock.sleep(for: .milliseconds(25))
      log.stamp("woke", scheduler)
      try await Task.sleep(for: .milliseconds(10), clock: scheduler.clock)
      log.stamp("woke again", scheduler)
    }
    #expect(log.all.isEmpty, "a task starts at the next advance, run or flush")
    scheduler.advance(by: 0)
    #expect(log.all == ["start@0"])
    scheduler.advance(by: 2)
    #expect(log.all == ["start@0"])
    scheduler.advance(by: 1)
    #expect(log.all == ["start@0", "woke@3"])
    scheduler.run()
    #expect(log.all == ["start@0", "woke@3", "woke again@4"])
  }

  @Test func aDeadlineAtOrBeforeNowEndsAtOnce() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    scheduler.advance(to: 5)
    scheduler.task {
      try await scheduler.clock.sleep(until: TestClock.Instant(offset: .milliseconds(2)))
      try await scheduler.clock.sleep(until: scheduler.clock.now)
      log.stamp("done", scheduler)
    }
    scheduler.advance(by: 0)
    #expect(log.all == ["done@5"])
  }

  @Test func aCancelledSleepThrowsAtOnceAndLeavesNothingScheduled() async {
    let scheduler = TestScheduler()
    let log = Log<String>()
    let task = scheduler.task {
      do {
        try await scheduler.clock.sleep(for: .seconds(10))
        log.append("woke")
      } catch {
        log.stamp("\(type(of: error))", scheduler)
      }
    }
    scheduler.advance(by: 1)
    #expect(scheduler.hasScheduledWork)
    task.cancel()
    scheduler.advance(by: 0)
    #expect(log.all == ["CancellationError@1"])
    #expect(!scheduler.hasScheduledWork)
    scheduler.run()
    #expect(scheduler.now == 1, "the cancelled wake-up never moves the clock")
  }

  @Test func unstructuredTasksCreatedByDrivenCodeAreDrivenToo() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    scheduler.task {
      let inner = Task {
        try await scheduler.clock.sleep(for: .milliseconds(2))
        log.stamp("inner", scheduler)
      }
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          try? await scheduler.clock.sleep(for: .milliseconds(1))
          log.stamp("child", scheduler)
        }
      }
      _ = await inner.result
      log.stamp("outer", scheduler)
    }
    scheduler.run()
    #expect(log.all == ["child@1", "inner@2", "outer@2"])
  }

  @Test func theInterleavingIsTheSameEveryTime() {
    func run() -> [String] {
      let scheduler = TestScheduler()
      let log = Log<String>()
      for index in 0..<5 {
        scheduler.task {
          for step in 0..<3 {
            log.append("\(index).\(step)")
            await Task.yield()
          }
          Task { log.append("\(index) spawned") }
        }
      }
      scheduler.run()
      return log.all
    }
    let first = run()
    #expect(first.count == 20)
    for _ in 0..<20 { #expect(run() == first) }
  }

  /// Eight schedulers on eight threads at once, each driving tasks that create unstructured tasks
  /// and sleep: each drives only its own work, and each gets the same interleaving as alone.
  @Test func manySchedulersDriveTheirOwnWorkSideBySideParallelUse() async {
    @Sendable func scenario(_ index: Int) -> [String] {
      let scheduler = TestScheduler()
      let log = Log<String>()
      for worker in 0..<3 {
        scheduler.task {
          for step in 0..<4 {
            try await scheduler.clock.sleep(for: .milliseconds(worker + 1))
            let spawned = Task { log.stamp("\(index).\(worker).\(step) spawned", scheduler) }
            await spawned.value
            log.stamp("\(index).\(worker).\(step)", scheduler)
          }
        }
      }
      scheduler.run()
      return log.all
    }
    let alone = scenario(0)
    #expect(alone.count == 24)
    for _ in 0..<5 {
      let results = await withTaskGroup(of: (Int, [String]).self) { group in
        for index in 0..<8 { group.addTask { (index, scenario(index)) } }
        var results: [Int: [String]] = [:]
        for await (index, log) in group { results[index] = log }
        return results
      }
      for (index, log) in results {
        #expect(log == alone.map { $0.replacingFirst("0.", with: "\(index).") })
      }
    }
  }
}

extension String {
  func replacingFirst(_ prefix: String, with replacement: String) -> String {
    hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
  }
}
