import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

/// RxJS-style `expect(…).toBe(…)` checked by `flush()`.
@Suite struct ExpectFlushTests {
  @Test func anRxJSStyleTestPorts() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("--a--b--|")
    scheduler.expect(source.map { $0.uppercased() }).toBe("--A--B--|")
    scheduler.expect(source, subscription: "---^--!").toBe("-----b-")
    scheduler.expectSubscriptions(source).toBe("^-------!", "---^--!")
    scheduler.flush()
  }

  /// RxJS's `expectObservable(source, "-----!")`: subscribed at frame 0, disposed at frame 5.
  @Test func aSubscriptionMarbleWithOnlyABangSubscribesAtFrameZero() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("a-b-c-d-e-|")
    scheduler.expect(source, subscription: "-----!").toBe("a-b-c")
    scheduler.expectSubscriptions(source).toBe("-----!")
    scheduler.flush()
  }

  @Test func everyFailingExpectationIsReportedAtItsOwnLine() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|")
    let firstLine = #line + 1
    scheduler.expect(source).toBe("-a-c|")
    scheduler.expect(source).toBe("-a-b|")  // passes
    let secondLine = #line + 1
    scheduler.expect(source, subscription: "--^").toBe("--a-b|")
    let seen = Mutex<[Int]>([])
    withKnownIssue {
      scheduler.flush()
    } matching: { issue in
      let line = issue.sourceLocation?.line ?? 0
      seen.withLock { $0.append(line) }
      return line == firstLine || line == secondLine
    }
    #expect(seen.withLock { $0 } == [firstLine, secondLine])
  }

  @Test func aFailingSubscriptionExpectationNamesTheDifference() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("--a|")
    scheduler.expect(source.replayLazily()).toBe("--a|")
    scheduler.expect(source.replayLazily(), subscription: "-^").toBe("---a|")
    let line = #line + 1
    scheduler.expectSubscriptions(source).toBe("^--!")
    withKnownIssue {
      scheduler.flush()
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          """
          subscriptions differ
            expected  ^--!
            actual    ^--!
                      -^--!
            expected 1 subscription, got 2; unexpected (1, 4)
          """
        ]
    }
  }

  @Test func flushReportsAnEndlessTimerAtItsOwnLine() {
    let scheduler = TestScheduler(stepLimit: 50)
    scheduler.schedule(after: .zero, interval: .milliseconds(2)) {}
    let line = #line + 2
    withKnownIssue {
      scheduler.flush()
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue.contains("a repeating action (every 2 ticks") == true
    }
  }

  @Test func checksRunOncePerFlush() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a|")
    scheduler.expect(source).toBe("-b|")
    withKnownIssue { scheduler.flush() }
    scheduler.flush()  // the failed check was consumed; nothing more to report
  }
}
