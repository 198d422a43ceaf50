import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A test that checks nothing must never pass: every way of forgetting the check fails at the line
/// of the `expect` it concerns.
@Suite struct NothingIsSilentlyGreenTests {
  /// Runs `body` with a scheduler of its own, which is released when `body` returns.
  private func withScheduler(_ body: (TestScheduler) throws -> Void) rethrows {
    try body(TestScheduler())
  }

  /// Expects exactly one issue, at `line`, whose text contains `text`.
  private func expectOneIssue(
    atLine line: @escaping @Sendable () -> Int, containing text: String,
    _ body: () throws -> Void
  ) {
    let lines = Mutex<[Int]>([])
    withKnownIssue {
      do { try body() } catch { Issue.record(error) }
    } matching: { issue in
      let issueLine = issue.sourceLocation?.line ?? 0
      lines.withLock { $0.append(issueLine) }
      return issueLine == line() && issue.comments.contains { $0.rawValue.contains(text) }
    }
    #expect(lines.withLock { $0 } == [line()])
  }

  @Test func anExpectWithNoFlushFailsAtItsLine() {
    let line = Mutex(0)
    expectOneIssue(atLine: { line.withLock { $0 } }, containing: "never checked") {
      try withScheduler { scheduler in
        let source = try scheduler.hot("-a-b|")
        line.withLock { $0 = #line + 1 }
        scheduler.expect(source).toBe("-a-b|")
      }
    }
  }

  @Test func anExpectCheckedByRunInsteadOfFlushFailsAtItsLine() {
    let line = Mutex(0)
    expectOneIssue(
      atLine: { line.withLock { $0 } }, containing: "run() runs the scheduler but checks nothing"
    ) {
      try withScheduler { scheduler in
        let source = try scheduler.cold("-a|")
        line.withLock { $0 = #line + 1 }
        scheduler.expect(source.map { $0.uppercased() }).toBe("-A|")
        scheduler.run()
      }
    }
  }

  @Test func anExpectAfterTheLastFlushFailsAtItsLine() {
    let line = Mutex(0)
    expectOneIssue(atLine: { line.withLock { $0 } }, containing: "never checked") {
      try withScheduler { scheduler in
        let source = try scheduler.cold("-a|")
        scheduler.expect(source).toBe("-a|")
        scheduler.flush()
        line.withLock { $0 = #line + 1 }
        scheduler.expectSubscriptions(source).toBe("^-!")
      }
    }
  }

  @Test func anExpectWithoutToBeFailsAtFlush() {
    let line = Mutex(0)
    expectOneIssue(atLine: { line.withLock { $0 } }, containing: "states nothing") {
      try withScheduler { scheduler in
        let source = try scheduler.cold("-a|")
        line.withLock { $0 = #line + 1 }
        _ = scheduler.expect(source)
        scheduler.flush()
      }
    }
  }

  @Test func aForgottenExpectOnATimeOperatorFailsAtItsLine() {
    // `delay` keeps its scheduler, and its pending work waits in that scheduler's queue: the
    // scheduler must still be released at the end of the test.
    let line = Mutex(0)
    expectOneIssue(atLine: { line.withLock { $0 } }, containing: "never checked") {
      try withScheduler { scheduler in
        let source = try scheduler.hot("-a-b|")
        line.withLock { $0 = #line + 1 }
        scheduler.expect(source.delay(.milliseconds(2), on: scheduler)).toBe("---a-b|")
      }
    }
  }

  @Test func aCheckedExpectReportsNothingMoreWhenItsSchedulerGoes() throws {
    try withScheduler { scheduler in
      let source = try scheduler.cold("-a|")
      scheduler.expect(source).toBe("-a|")
      scheduler.flush()
    }
  }

  /// Test signals, recorders, expectations and higher-order recorders hold the scheduler's engine,
  /// never the scheduler: when the test lets go of the scheduler, it is released.
  @Test func aForgottenSchedulerIsReleased() throws {
    weak var released: TestScheduler?
    try withKnownIssue {
      try withScheduler { scheduler in
        released = scheduler
        let hot = try scheduler.hot("-a-b-|")
        let cold = try scheduler.cold("--x|")
        _ = scheduler.record(hot.merge(cold), subscribeAt: 1, disposeAt: 9)
        _ = scheduler.recordHigherOrder(hot.map { _ in cold.asSignal() }, subscribeAt: 2)
        scheduler.expect(hot.flattenMap { _ in cold.asSignal() }).toBe("---x-x|")
        scheduler.expectSubscriptions(cold).toBe("--^--!")
        scheduler.schedule(at: 3) { _ = hot.subscriptions }
      }
    } matching: {
      $0.comments.contains { $0.rawValue.contains("never checked") }
    }
    #expect(released == nil)
  }

  @Test func recordersAndTestSignalsOutliveTheirSchedulerHarmlessly() throws {
    var recorder: TestSubscriber<String, TestError>?
    var signal: TestSignal<String, TestError>?
    try withScheduler { scheduler in
      let hot = try scheduler.hot("-a|")
      recorder = scheduler.record(hot)
      signal = hot
      scheduler.advance(by: 1)
    }
    #expect(recorder?.scheduler == nil)
    #expect(signal?.scheduler == nil)
    #expect(recorder?.events == [.next(1, "a")])
    _ = signal?.subscribe(next: { _ in })
    #expect(signal?.subscriptions.count == 2)
  }

  /// A scheduler that code under test keeps alive forever cannot report when its test ends; the
  /// test process reports the unchecked `expect` when it exits, and exits with status 1.
  @Test func anExpectWhoseSchedulerIsNeverReleasedFailsTheProcess() async throws {
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      let scheduler = TestScheduler()
      let source = try scheduler.hot("-a|")
      // A closure in the scheduler's own queue that holds the scheduler: a cycle.
      scheduler.schedule(at: 5) { _ = scheduler.now }
      scheduler.expect(source).toBe("-a|")
      // An exit test's process ends without running exit handlers; a test process runs them.
      exit(EXIT_SUCCESS)
    }
    let standardError = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(standardError.contains("1 expectation was never checked"))
    #expect(standardError.contains("NothingIsSilentlyGreenTests.swift:"))
    #expect(standardError.contains("call scheduler.flush() after it"))
  }

  /// Off the test's task — in a detached task, on another thread — `Test.current` is nil; the
  /// failure must still be recorded, not sent to an XCTest that is not running.
  @Test func anAssertionFailingOffTheTestsTaskStillFails() async {
    await withKnownIssue {
      await #expect(processExitsWith: .success) {
        await Task.detached {
          let scheduler = TestScheduler()
          let recorder = scheduler.record(try! scheduler.cold("-a|"))
          scheduler.run()
          assertMarbles(recorder, "-b|")
        }.value
      }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("marbles differ at frame 1") }
    }
  }

  @Test func anAssertionOnASubscriberWithPendingWorkSaysSo() throws {
    let scheduler = TestScheduler()
    let recorder = scheduler.record(try scheduler.cold("-a--b|"))
    scheduler.advance(by: 2)
    withKnownIssue {
      assertMarbles(recorder, "-a--b|")
    } matching: { issue in
      issue.comments.first?.rawValue.hasSuffix(
        "\n2 actions pending at tick 2 — did you forget `run()`?") == true
    }
    scheduler.run()
    assertMarbles(recorder, "-a--b|")
  }

  /// An endless timer stopped at the step limit, then a marble assertion over its thousands of
  /// values: both messages stay short.
  @Test func failuresOverAnEndlessTimerStayShort() {
    let scheduler = TestScheduler(stepLimit: 5_000)
    let recorder = scheduler.record(
      Signal<Int, Never>.interval(.milliseconds(1), on: scheduler).map { "v\($0)" })
    scheduler.run()
    let sizes = Mutex<[Int]>([])
    withKnownIssue {
      assertMarbles(recorder, "-a|")
    } matching: { issue in
      sizes.withLock { $0.append(issue.comments.first?.rawValue.count ?? 0) }
      return true
    }
    let measured = sizes.withLock { $0 }
    #expect(measured.count == 2)
    #expect(measured.allSatisfy { $0 < 2_000 })
  }

  @Test func aMessageOfAnyLengthIsCappedAtAFewKilobytes() {
    let scheduler = TestScheduler()
    let recorder = scheduler.record(
      Signal<String, Never> { subscriber in
        for index in 0..<1_000 { subscriber.sendNext(String(repeating: "x", count: index % 7 + 2)) }
        return nil
      })
    scheduler.run()
    let marble = "(" + String(repeating: "a", count: 30_000) + ")"
    withKnownIssue {
      assertMarbles(recorder, marble, values: ["a": "xx"])
    } matching: { issue in
      (issue.comments.first?.rawValue.count ?? .max) <= MessageBounds.messageLimit + 100
    }
  }
}
