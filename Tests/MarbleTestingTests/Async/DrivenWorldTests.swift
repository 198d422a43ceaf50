import MarbleTesting
import Synchronization
import Testing

/// Tasks the test body starts after it made the scheduler are driven by it, wherever they start.
@Suite struct DrivenWorldTests {
  @Test func aTaskStartedInAnAsyncTestBodyIsDriven() async {
    let scheduler = TestScheduler()
    let log = Log<String>()
    Task {
      log.stamp("started", scheduler)
      try await scheduler.clock.sleep(for: .milliseconds(3))
      log.stamp("woke", scheduler)
    }
    #expect(log.all == [], "nothing runs before the scheduler is driven")
    scheduler.advance(by: 2)
    #expect(log.all == ["started@0"])
    scheduler.advance(by: 1)
    #expect(log.all == ["started@0", "woke@3"])
  }

  @Test func aTaskStartedInASyncTestBodyIsDriven() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    Task.detached {
      try await scheduler.clock.sleep(for: .milliseconds(2))
      log.stamp("detached", scheduler)
    }
    scheduler.advance(by: 1)
    #expect(log.all == [])
    scheduler.advance(by: 1)
    #expect(log.all == ["detached@2"])
  }

  @Test func aTaskStartedBeforeTheSchedulerIsNotDriven() async {
    let log = Log<String>()
    let gate = AsyncStream<Void>.makeStream()
    let before = Task {
      for await _ in gate.stream { log.append("before") }
    }
    let scheduler = TestScheduler()
    gate.continuation.yield()
    gate.continuation.finish()
    await before.value
    #expect(log.all == ["before"])
    #expect(!scheduler.hasScheduledWork)
  }

  @Test func anAsyncStreamWhoseBuilderStartsATaskIsDrivenEveryTime() {
    for _ in 0..<50 {
      let scheduler = TestScheduler()
      let clock = scheduler.clock
      let (input, feed) = AsyncStream<String>.makeStream()
      // A hand-written debounce: an unstructured task inside the stream's builder.
      let debounced = AsyncStream<String> { continuation in
        Task {
          var pending: Task<Void, Never>?
          for await value in input {
            pending?.cancel()
            pending = Task {
              do {
                try await clock.sleep(for: .milliseconds(2))
                continuation.yield(value)
              } catch {}
            }
          }
          await pending?.value
          continuation.finish()
        }
      }
      let recorder = scheduler.record(debounced)
      scheduler.schedule(at: 1) { feed.yield("a") }
      scheduler.schedule(at: 4) { feed.yield("b") }
      scheduler.schedule(at: 5) { feed.yield("c") }
      scheduler.schedule(at: 9) { feed.finish() }
      scheduler.run()
      #expect(recorder.events == [.next(3, "a"), .next(7, "c"), .completed(9)])
    }
  }

  @Test func eachSchedulerDrivesOnlyItsOwnTestsTasksParallelUse() async {
    @Sendable func scenario(_ index: Int) async -> [String] {
      let scheduler = TestScheduler()
      let log = Log<String>()
      for worker in 0..<3 {
        Task {
          for step in 0..<3 {
            try await scheduler.clock.sleep(for: .milliseconds(worker + 1))
            log.stamp("\(index).\(worker).\(step)", scheduler)
          }
        }
      }
      scheduler.run()
      return log.all
    }
    let alone = await scenario(0)
    #expect(alone.count == 9)
    let results = await withTaskGroup(of: (Int, [String]).self) { group in
      for index in 0..<8 { group.addTask { (index, await scenario(index)) } }
      var results: [Int: [String]] = [:]
      for await (index, log) in group { results[index] = log }
      return results
    }
    for (index, log) in results {
      #expect(log == alone.map { $0.replacingFirst("0.", with: "\(index).") })
    }
  }

  @Test func awaitingADrivenTaskBeforeDrivingItDrivesIt() async throws {
    let scheduler = TestScheduler()
    let value = try await scheduler.task(name: "the answer") {
      try await scheduler.clock.sleep(for: .milliseconds(3))
      return 42
    }.value
    #expect(value == 42)
    #expect(scheduler.now == 3)
    #expect(scheduler.takeUnreportedFailures().isEmpty)
  }

  @MainActor @Test func mainActorWorkOfTheDrivenWorldRunsOnTheMainActorInsideAdvance() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    Task { @MainActor in
      log.stamp("main", scheduler)
      try await scheduler.clock.sleep(for: .milliseconds(1))
      MainActor.assertIsolated()
      log.stamp("main again", scheduler)
    }
    #expect(log.all == [])
    scheduler.advance(by: 0)
    #expect(log.all == ["main@0"])
    scheduler.advance(by: 1)
    #expect(log.all == ["main@0", "main again@1"])
  }

  @Test func mainActorWorkFromANonisolatedTestRunsOnTheMainActorToo() async {
    let scheduler = TestScheduler()
    let log = Log<String>()
    Task { @MainActor in
      log.stamp("main", scheduler)
      try await scheduler.clock.sleep(for: .milliseconds(1))
      MainActor.assertIsolated()
      log.stamp("main again", scheduler)
    }
    scheduler.advance(by: 0)
    #expect(log.all == ["main@0"])
    scheduler.advance(by: 1)
    #expect(log.all == ["main@0", "main again@1"])
  }

  /// A task the test started and never drove keeps the scheduler alive after the test: the
  /// watchdog lets it go, and the scheduler's release — by that task, not the test — reports
  /// nothing (a report would depend on whether the process lived long enough).
  @Test func aLeftoverTaskThatKeepsItsSchedulerIsLetGoWithoutAReport() async throws {
    weak var weakScheduler: TestScheduler?
    do {
      let scheduler = TestScheduler(stallTimeout: .milliseconds(100))
      weakScheduler = scheduler
      Task { _ = try await scheduler.clock.sleep(for: .seconds(1)) }
    }
    #expect(weakScheduler != nil, "the undriven task keeps its scheduler")
    // Real time, on purpose: this is about what happens when nothing drives the scheduler.
    let deadline = ContinuousClock.now.advanced(by: .seconds(30))
    while weakScheduler != nil, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(weakScheduler == nil)
  }
}
