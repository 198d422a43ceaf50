@preconcurrency import Dispatch
import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

/// Marbles, `expect` and tables for async sequences and tasks.
@Suite struct AsyncMarblesTests {
  struct Unparsable: Error {}

  @Test func expectAnAsyncSequence() throws {
    let scheduler = TestScheduler()
    let input = try scheduler.hot("-a--b-c---|")
    scheduler.expect(input.values.map { $0.uppercased() }).toBe("-A--B-C---|")
    scheduler.expect(input.values, subscription: "--^---!").toBe("----b-")
    scheduler.expectSubscriptions(input).toBe("^---------!", "--^---!")
    scheduler.flush()
  }

  @Test func aSequenceThatThrowsAnyErrorIsAssertedWithTestErrors() throws {
    let scheduler = TestScheduler()
    let lines = try scheduler.cold("-1-2-x-3|")
    let numbers = lines.values.map { (line: String) throws -> Int in
      guard let number = Int(line) else { throw TestError("bad line") }
      return number
    }
    let recorder = scheduler.record(numbers)
    scheduler.expect(numbers).toBe(
      "-1-2-#", values: ["1": 1, "2": 2], error: TestError("bad line"))
    scheduler.flush()
    assertMarbles(recorder, "-1-2-#", values: ["1": 1, "2": 2], error: TestError("bad line"))
    withKnownIssue {
      assertMarbles(recorder, "-1-2-#", values: ["1": 1, "2": 2])
    } matching: { issue in
      issue.comments.first?.rawValue.contains(
        #"expected error(TestError("error")) at frame 5, got error(TestError("bad line"))"#) == true
    }
  }

  @Test func anErrorThatIsNotATestErrorIsNamed() throws {
    let scheduler = TestScheduler()
    let lines = try scheduler.cold("-x|")
    let recorder = scheduler.record(lines.values.map { _ throws -> Int in throw Unparsable() })
    scheduler.run()
    withKnownIssue {
      assertMarbles(recorder, "-#", values: [:])
    } matching: { issue in
      issue.comments.first?.rawValue.contains(#"got error(TestError("Unparsable: Unparsable()"))"#)
        == true
    }
  }

  @Test func flushReportsATaskNothingInVirtualTimeWillResume() {
    let scheduler = TestScheduler()
    scheduler.task(name: "the stuck task") {
      await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
    }
    scheduler.task(name: "a task that ends") {
      try await scheduler.clock.sleep(for: .milliseconds(3))
    }
    let line = #line + 2
    withKnownIssue {
      scheduler.flush()
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue.hasPrefix(
          "the stuck task (started at tick 0) is still suspended at tick 3, and nothing in virtual "
            + "time will resume it") == true
    }
    scheduler.flush()  // reported once
  }

  @Test func aTaskWaitingOnARealClockIsReportedNotAwaited() {
    let scheduler = TestScheduler()
    let timer = DispatchSource.makeTimerSource(queue: .global())
    scheduler.task(name: "a real wait") {
      // A Dispatch timer source: libdispatch fires it from its own threads, in real time.
      await withCheckedContinuation { continuation in
        timer.setCancelHandler { continuation.resume() }
        timer.schedule(deadline: .now() + 3600)
        timer.activate()
      }
    }
    withKnownIssue {
      scheduler.flush()
    } matching: { issue in
      let comment = issue.comments.first?.rawValue ?? ""
      return comment.hasPrefix("a real wait (started at tick 0) is still suspended")
        && comment.contains(
          "a Dispatch timer source on a global queue was made at tick 0; it runs in real time")
    }
    timer.cancel()
  }

  @Test func aTaskSleepingAnHourOnAStandardClockSleepsInVirtualTime() {
    let scheduler = TestScheduler()
    scheduler.task(name: "an hour's sleep") {
      try await Task.sleep(for: .seconds(3600), clock: ContinuousClock())
    }
    scheduler.flush()
    #expect(scheduler.now == 3_600_000)
  }

  @Test func theStepLimitCoversAsyncWork() {
    let scheduler = TestScheduler(stepLimit: 1_000)
    let spinning = scheduler.task {
      while !Task.isCancelled { await Task.yield() }
    }
    let result = scheduler.run()
    #expect(result.failure?.kind == .stepLimitExceeded)
    #expect(result.actionsRun == 1_000)
    #expect(
      result.failure?.message.contains(
        "What kept it going: a driven task that keeps waking up without virtual time moving")
        == true)
    spinning.cancel()
    #expect(scheduler.run().isComplete, "a later run() carries on")
  }

  @Test func aTableOverAnAsyncPipeline() {
    assertTable(
      """
      query  hot   -a-b-----c-|
      sub    gets  -a-b-----c-|
      """
    ) { (sources: TableSources<String, Never>) in
      Signal(sources["query"].values)
    }
  }
}
