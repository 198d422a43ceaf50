import MarbleTesting
import Marbles
import Signals
import Synchronization
import TestSupport
import Testing

// The code of the Marbles catalog's articles. Each region between `// snippet: NAME` and
// `// snippet-end` is quoted verbatim by an article (ArticleListingsTests checks it), and runs here.

@Suite struct GettingStartedSnippetsTests {
  @Test func readingAFailure() throws {
    let scheduler = TestScheduler()
    let recorder = scheduler.record(try scheduler.cold("--a--b-|"))
    scheduler.run()
    withKnownIssue {
      assertMarbles(recorder, "--a-b--|")
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        // snippet: getting-started-failure
        """
        marbles differ at frame 4
          expected  --a-b--|
          actual    --a--b-|
                        ^ expected next("b") at frame 4, got nothing; next("b") came at frame 5
        """
        // snippet-end
      ]
    }
  }
}

@Suite struct MarbleLanguageSnippetsTests {
  @Test func valuesAndErrors() throws {
    // snippet: language-values
    struct User: Equatable, Sendable { var id: Int }
    let scheduler = TestScheduler()
    let users: TestSignal<User, Never> = try scheduler.cold(
      "-a-b|", values: ["a": User(id: 1), "b": User(id: 2)])
    let ids = scheduler.record(users.map(\.id))
    scheduler.run()
    assertMarbles(ids, "-x-y|", values: ["x": 1, "y": 2])
    // snippet-end
  }

  @Test func aCustomError() throws {
    // snippet: language-error
    enum LoadError: Error, Equatable { case offline }
    let scheduler = TestScheduler()
    let load = try scheduler.cold("--#", values: [String: Int](), error: LoadError.offline)
    let recorder = scheduler.record(load)
    scheduler.run()
    assertMarbles(recorder, "--#", values: [String: Int](), error: LoadError.offline)
    // snippet-end
  }

  @Test func theFailureTypeComesFromTheUse() throws {
    // snippet: language-never-from-the-use
    let scheduler = TestScheduler()
    let typed: TestSignal<String, Never> = try scheduler.hot("--a--b--")
    let shouted = scheduler.record(typed.map { $0.uppercased() })
    let merged = scheduler.record(typed.merge(try scheduler.cold("-c|")))  // Never, from the use
    scheduler.run()
    assertMarbles(shouted, "--A--B--")
    assertMarbles(merged, "-ca--b")
    // snippet-end
  }

  @Test func timeProgressions() throws {
    // snippet: language-time-progression
    let scheduler = TestScheduler(tick: .milliseconds(1))
    let source = try scheduler.cold("a 10ms b|")  // a at 0, b at 11, completed at 12
    let recorder = scheduler.record(source)
    scheduler.run()
    #expect(recorder.events == [.next(0, "a"), .next(11, "b"), .completed(12)])
    #expect(try scheduler.time("---|") == 3)
    // snippet-end
  }

  @Test func subscriptionMarbles() throws {
    // snippet: language-subscriptions
    let scheduler = TestScheduler()
    let source = try scheduler.hot("--a--b--c--|")
    let recorder = scheduler.record(source.take(2), subscribeAt: 1)
    scheduler.run()
    assertMarbles(recorder, "--a--(b|)")  // take(2) ends after b
    assertSubscriptions(source, "-^---!")  // subscribed at 1, disposed at 5
    // snippet-end
  }

  @Test func syntaxErrorsHaveAPosition() throws {
    let scheduler = TestScheduler()
    let error = try #require(throws: MarbleSyntaxError.self) {
      _ = try scheduler.cold("--a--|--b")
    }
    let expected =
      // snippet: language-syntax-error
      """
      line 1, column 9: 'b' comes after the '|' at column 6; nothing may follow a terminal event
        --a--|--b
                ^
      """
    // snippet-end
    #expect(error.description == expected)
  }

  @Test func oneFrameGroups() throws {
    // snippet: language-one-frame-group
    let scheduler = TestScheduler()
    let merged = scheduler.record(try scheduler.cold("-a|").merge(try scheduler.cold("-b|")))
    scheduler.run()
    assertMarbles(merged, "-[ab]|")  // a and b at frame 1, the end at frame 2
    // "-(ab)|" would put the end at frame 5: a (…) group is as long as it is written
    // snippet-end
  }
}

@Suite struct HotAndColdSnippetsTests {
  // snippet: hot-and-cold-every-subscription-is-a-request
  @Test func everySubscriptionIsARequest() {
    assertTable(
      """
      fetch  cold  ---r|
      title  sub   ^
      title  gets  ---r|
      desc   sub   -^
      desc   gets  ----r|
      merge  sub   --^
      merge  gets  -----r|
      fetch  subs  ^---!
      fetch  subs  -^---!
      fetch  subs  --^---!
      """
    ) { $0["fetch"] }
  }
  // snippet-end

  // snippet: hot-and-cold-publish
  @Test func publishSharesOneRequestButALateSubscriberMissesTheAnswer() {
    assertTable(
      """
      fetch  cold  ---r|
      title  sub   ^
      title  gets  ---r|
      desc   sub   -^
      desc   gets  ---r|
      late   sub   ------^
      late   gets  ------|
      fetch  subs  ^---!
      """
    ) { $0["fetch"].publish().autoconnect() }
  }
  // snippet-end

  // snippet: hot-and-cold-replay
  @Test func replayRunsTheRequestAtOnceEvenWithNobodySubscribed() {
    assertTable(
      """
      fetch  cold  ---r|
      late   sub   ------^
      late   gets  ------(r|)
      fetch  subs  ^---!
      """
    ) { $0["fetch"].replay() }
  }
  // snippet-end
}

@Suite struct VirtualTimeSnippetsTests {
  @Test func sameTickOrder() throws {
    // snippet: virtual-time-same-tick
    let scheduler = TestScheduler()
    let source = try scheduler.hot("--a--b--|")
    let onTime = scheduler.record(source, subscribeAt: 2)  // a ^ and an a in one column
    let leaving = scheduler.record(source, subscribeAt: 0, disposeAt: 5)  // a ! and a b
    scheduler.run()
    assertMarbles(onTime, "--a--b--|")  // subscribed before a at frame 2
    assertMarbles(leaving, "--a")  // disposed before b at frame 5
    // snippet-end
  }

  @Test func advanceAndRun() throws {
    // snippet: virtual-time-advance
    let scheduler = TestScheduler(tick: .milliseconds(10))
    let recorder = scheduler.record(try scheduler.cold("-a-b-|"))
    scheduler.advance(by: 2)  // ticks
    #expect(recorder.events == [.next(1, "a")])
    scheduler.advance(by: .milliseconds(25))  // rounded up: 3 ticks, now 5
    #expect(scheduler.now == 5)
    let result = scheduler.run()
    #expect(result.isComplete && recorder.events.count == 3)
    // snippet-end
  }

  @Test func theStepLimit() {
    // snippet: virtual-time-step-limit
    let scheduler = TestScheduler(stepLimit: 1_000)
    let ticks = scheduler.record(Signal<Int, Never>.interval(.milliseconds(1), on: scheduler))
    let result = scheduler.run()  // an endless timer: stops instead of hanging
    #expect(!result.isComplete)
    #expect(result.failure?.kind == .stepLimitExceeded)
    #expect(ticks.events.count == 1_000)  // 1,000 steps, 1,000 ticks (record subscribed at once)
    _ = scheduler.takeUnreportedFailures()  // this test expects the failure
    // snippet-end
  }

  @Test func expectAndFlush() throws {
    // snippet: virtual-time-expect-flush
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a--b--c--|")
    scheduler.expect(source.debounce(.milliseconds(2), on: scheduler)).toBe("---a--b--c|")
    scheduler.expectSubscriptions(source).toBe("^---------!")
    scheduler.flush()  // runs, then checks every expectation
    // snippet-end
  }
}

@Suite struct AsyncSnippetsTests {
  @Test func aTaskInTheTestBody() async throws {
    // snippet: async-task-in-the-test-body
    let scheduler = TestScheduler()
    let clock = scheduler.clock
    let task = Task {
      try await clock.sleep(for: .seconds(1))
      return "done at \(clock.now.offset)"
    }
    scheduler.advance(by: .milliseconds(999))
    scheduler.advance(by: .milliseconds(1))  // the sleep ends here, and the task finishes
    #expect(try await task.value == "done at 1.0 seconds")
    // snippet-end
  }

  @Test func aSchedulerTask() async throws {
    // snippet: async-scheduler-task
    let scheduler = TestScheduler()
    let clock = scheduler.clock
    let steps = scheduler.task {
      var ticks: [Int] = []
      for _ in 0..<3 {
        try? await clock.sleep(for: .milliseconds(2))
        ticks.append(scheduler.now)
      }
      return ticks
    }
    scheduler.run()
    #expect(try await steps.value == [2, 4, 6])
    // snippet-end
  }
}

@Suite struct PortingSnippetsTests {
  /// RxSwift's `Documentation/UnitTests.md` example of RxTest, translated by the rules of the
  /// Porting article: `createHotObservable` is `hot([…])`, `start { }` subscribes at 200 and
  /// disposes at 1000.
  @Test func anRxTestTest() throws {
    // snippet: porting-rxtest
    let scheduler = TestScheduler()
    let xs = try scheduler.hot(
      [.next(150, 1), .next(210, 0), .next(220, 1), .next(230, 2), .next(240, 4), .completed(300)]
        as [Recorded<Event<Int, Never>>])
    let res = scheduler.record(xs.map { $0 * 2 }, subscribeAt: 200, disposeAt: 1000)
    scheduler.run()
    #expect(
      res.events == [.next(210, 0), .next(220, 2), .next(230, 4), .next(240, 8), .completed(300)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
    // snippet-end
  }
}

@Suite struct PicturesSnippetsTests {
  @Test func picturesInCode() throws {
    // snippet: pictures-in-code
    let scheduler = TestScheduler()
    let recorder = scheduler.record(try scheduler.cold("-a-b|").map { $0.uppercased() })
    scheduler.run()
    let lane = Marble.svg(recorder.events, title: "map(uppercased)")
    let diagram = try Marble.svg("-a-b|")
    #expect(lane.hasPrefix("<?xml") && diagram.contains("<svg"))
    // snippet-end
  }
}

@Suite struct ReadmeSnippetsTests {
  /// The README's table without its `replayLazily()`: what the failure says.
  @Test func theFirstTableWithoutReplayLazily() {
    withKnownIssue {
      assertTable(
        """
        fetch  cold  ---r|
        sub1   sub   -^--------
        sub1   gets  ----r|
        sub2   sub   ------^---
        sub2   gets  ------(r|)
        fetch  subs  -^---!
        """
      ) { $0["fetch"] }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        // snippet: readme-table-failure
        """
        table failed
        fetch  cold  ---r|
        sub1   sub   -^--------
        sub1   gets  ----r|
        sub2   sub   ------^---
        sub2   gets  ------(r|)
                was  ---------r|
                           ^
        fetch  subs  -^---!
                was  -^---!
                was  ------^---!
                           ^

        sub2 missed `r` at frame 6 (it came at frame 9)
        fetch: expected 1 subscription, got 2; unexpected (6, 10)
        """
        // snippet-end
      ]
    }
  }
}

// The test's world, as the async article shows it: tests that await app code, and nothing else.
@Suite struct TheWorldSnippetsTests {
  // snippet: world-awaits
  @MainActor @Test(.virtualTime) func theFeedLoadsWithinItsTimeout() async throws {
    let start = ContinuousClock.now
    let model = FeedModel()  // load() fetches two sources side by side: 1 s and 2 s of sleep
    try await withTimeout(.seconds(5)) { await model.load() }
    #expect(model.items == ["news", "weather"])
    #expect(start.duration(to: .now) == .seconds(2))  // exactly, in no real time
  }
  // snippet-end

  @Test func withVirtualTimeAndATaskGroup() async {
    // snippet: world-with-virtual-time
    let finished = await withVirtualTime { scheduler in
      await withTaskGroup(of: String.self) { group in
        for seconds in [3, 1, 2] {
          group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return "\(seconds) s at \(scheduler.now) ms"
          }
        }
        return await group.reduce(into: []) { $0.append($1) }
      }
    }
    #expect(finished == ["1 s at 1000 ms", "2 s at 2000 ms", "3 s at 3000 ms"])
    // snippet-end
  }

  // snippet: world-same-instant
  /// Hides itself 3 s after the last keystroke.
  @MainActor final class TypingIndicator {
    private(set) var isShown = false
    private var hiding: Task<Void, Never>?

    func keystroke() {
      isShown = true
      hiding?.cancel()
      hiding = Task {
        try? await Task.sleep(for: .seconds(3))
        if !Task.isCancelled { isShown = false }
      }
    }
  }

  @MainActor @Test(.virtualTime) func theIndicatorHidesAfterThreeSeconds() async throws {
    let indicator = TypingIndicator()
    indicator.keystroke()
    try await Task.sleep(for: .seconds(3))
    #expect(!indicator.isShown)  // the app's work at 3 s ran before the test resumed
  }
  // snippet-end

  // snippet: world-mixed
  @Test(.virtualTime) func awaitsAndExplicitCallsMix() async throws {
    let scheduler = try #require(TestScheduler.current)
    let service = FlakyService(failures: 1, latency: .zero)  // fails once, retried after 1 s
    let retry = Task { try await fetchWithBackoff(service, attempts: 2) }
    scheduler.advance(by: .milliseconds(999))  // an explicit call drives up to where it says
    #expect(scheduler.now == 999)
    #expect(try await retry.value == "payload")  // an await drives until the test can go on
    #expect(scheduler.now == 1_000)
  }
  // snippet-end

  @Test func aDeadlockIsReportedAtOnce() async {
    let report = Mutex("")
    let line = #line + 3
    await withKnownIssue {
      // snippet: world-deadlock
      await withVirtualTime { _ in
        let (stream, feed) = AsyncStream<Int>.makeStream()
        let consumer = Task { for await _ in stream {} }
        await consumer.value  // nothing will ever feed or finish the stream
        withExtendedLifetime(feed) {}
      }
      // snippet-end
    } matching: { issue in
      report.withLock { $0 = issue.comments.map(\.rawValue).joined() }
      return true
    }
    let expected =
      // snippet: world-deadlock-report
      """
      The test's world is deadlocked at tick 0: the test waits, and nothing in its world is ready to run or due at a later tick.
        - the test waits for the value of task 1
        - task 1 (started in TheWorldSnippetsTests.aDeadlockIsReportedAtOnce()) waits in TheWorldSnippetsTests.aDeadlockIsReportedAtOnce() for a continuation that nothing in the world resumes (withCheckedContinuation, an AsyncStream's next() whose producer is done or waits too)
      Nothing will ever resume them, so the world's work was cancelled, to end the test's waits.
      """
    // snippet-end
    #expect(
      report.withLock { $0 }
        == expected + " (A scheduler made at MarblesTests/ArticleSnippetsTests.swift:\(line).)")
  }
}
