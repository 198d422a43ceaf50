import MarbleTesting
import Marbles
import Synchronization
import Testing

/// The examples that define "virtual time begins and ends with the test, and awaits drive it"
/// elsewhere — kotlinx-coroutines-test's `runTest` and Go's `testing/synctest` — ported to Swift
/// with their meaning kept. Translation rules: `runTest { }` is `@Test(.virtualTime)`;
/// `launch`/`async` is `Task { }`, `await()`/`join()` is `.value`; `delay(n)` is
/// `Task.sleep(for: .milliseconds(n))`; `runCurrent()` is `advance(by: 0)`, `advanceTimeBy(n)` is
/// `advance(by: n)`, `advanceUntilIdle()` is `run()`, `currentTime` is `now` (a 1 ms tick);
/// `synctest.Test(t) { }` is `withVirtualTime { }`; a goroutine is a `Task { }`; `time.Sleep` is
/// `Task.sleep`; `synctest.Wait()` — every other goroutine durably blocked — is `advance(by: 0)`,
/// which runs every job ready now; Go's `context` is a small cancellation type below.
@Suite struct AnchorsTests {
  // MARK: kotlinx-coroutines-test

  /// kotlinx-coroutines-test, `runTest`'s documentation (TestBuilders.kt, `runTest`): an `async`
  /// that delays a second and awaits another that delays a second; "result available
  /// immediately".
  // snippet: porting-run-test
  @Test(.virtualTime) func kotlinRunTestResultAvailableImmediately() async throws {
    let deferred = Task {
      try await Task.sleep(for: .seconds(1))
      return try await Task { try await Task.sleep(for: .seconds(1)) }.value
    }
    try await deferred.value  // result available immediately
    #expect(TestScheduler.current?.now == 2000)
  }
  // snippet-end

  /// `runTest`'s documentation, `exampleWaitingForAsyncTasks1`: a child launched by the test runs
  /// when the test suspends on `join()`, not before.
  @Test(.virtualTime) func kotlinWaitingForAsyncTasksByJoining() async {
    let order = Mutex<[Int]>([1])
    let job = Task { order.withLock { $0.append(3) } }
    order.withLock { $0.append(2) }
    await job.value  // the main test coroutine suspends here, so the child is executed
    order.withLock { $0.append(4) }
    #expect(order.withLock { $0 } == [1, 2, 3, 4])
  }

  /// `runTest`'s documentation, `exampleWaitingForAsyncTasks2`: `yield()` lets the launched child
  /// run before the test goes on.
  @Test(.virtualTime) func kotlinWaitingForAsyncTasksByYielding() async {
    let order = Mutex<[Int]>([1])
    Task { order.withLock { $0.append(3) } }
    order.withLock { $0.append(2) }
    await Task.yield()  // yields the execution to the child, so it runs
    order.withLock { $0.append(4) }
    #expect(order.withLock { $0 } == [1, 2, 3, 4])
  }

  /// kotlinx-coroutines-test's README, "Controlling the virtual time": `runCurrent`,
  /// `advanceTimeBy(2_000)`, `advanceUntilIdle`, and the child finishing at 6 500 ms.
  @Test(.virtualTime) func kotlinControllingTheVirtualTime() throws {
    let scheduler = try #require(TestScheduler.current)
    let printed = Mutex<[Int]>([])
    Task {
      printed.withLock { $0.append(1) }  // executes during runCurrent()
      try await Task.sleep(for: .milliseconds(1_000))  // suspends until time is advanced by 1 000
      printed.withLock { $0.append(2) }  // executes during advanceTimeBy(2_000)
      try await Task.sleep(for: .milliseconds(500))  // suspends for another 500 ms
      printed.withLock { $0.append(3) }  // also executes during advanceTimeBy(2_000)
      try await Task.sleep(for: .milliseconds(5_000))  // will suspend by another 4 500 ms
      printed.withLock { $0.append(4) }  // executes during advanceUntilIdle()
    }
    #expect(printed.withLock { $0 }.isEmpty, "the child coroutine has not run yet")
    scheduler.advance(by: 0)  // runCurrent()
    #expect(printed.withLock { $0 } == [1])
    scheduler.advance(by: .milliseconds(2_000))  // advanceTimeBy(2_000)
    #expect(printed.withLock { $0 } == [1, 2, 3])
    scheduler.run()  // advanceUntilIdle()
    #expect(printed.withLock { $0 } == [1, 2, 3, 4])
    #expect(scheduler.now == 6_500)  // the child coroutine finished at 6 500 ms
  }

  // MARK: Go testing/synctest

  /// Go's `testing/synctest` package documentation, the `Time` example: a goroutine's 1 s sleep
  /// logs "1s"; the test's 2 s sleep returns after it, and logs "2s" — always.
  @Test func goSynctestTime() async throws {
    let logged = try await withVirtualTime { _ in
      let logged = Mutex<[Duration]>([])
      let start = ContinuousClock.now
      Task {
        try await Task.sleep(for: .seconds(1))
        logged.withLock { $0.append(start.duration(to: .now)) }  // always logs "1s"
      }
      try await Task.sleep(for: .seconds(2))  // the task above runs before this sleep returns
      logged.withLock { $0.append(start.duration(to: .now)) }  // always logs "2s"
      return logged.withLock { $0 }
    }
    #expect(logged == [.seconds(1), .seconds(2)])
  }

  /// The Go blog, "Testing concurrent code with testing/synctest", `TestWithTimeout`: a context
  /// with a 5 s timeout is not done a nanosecond before, and is done at 5 s.
  @Test func goSynctestWithTimeout() async throws {
    // snippet: porting-synctest
    try await withVirtualTime(tick: .nanoseconds(1)) { scheduler in
      let timeout = Duration.seconds(5)
      let context = Context.withTimeout(timeout)
      defer { context.cancel() }
      // Wait just less than the timeout.
      try await Task.sleep(for: timeout - .nanoseconds(1))
      scheduler.advance(by: 0)  // synctest.Wait()
      #expect(context.error == nil, "before timeout")
      // Wait the rest of the way until the timeout.
      try await Task.sleep(for: .nanoseconds(1))
      scheduler.advance(by: 0)  // synctest.Wait()
      #expect(context.error == .deadlineExceeded, "after timeout")
    }
    // snippet-end
  }

  /// The Go blog, `TestAfterFunc`: a function registered with `context.AfterFunc` is not called
  /// before the context is cancelled, and is called after.
  @Test func goSynctestAfterFunc() {
    withVirtualTime { scheduler in
      let context = Context.withCancel()
      let called = Mutex(false)
      context.afterFunc { called.withLock { $0 = true } }
      scheduler.advance(by: 0)  // synctest.Wait()
      #expect(!called.withLock { $0 }, "AfterFunc called before cancel")
      context.cancel()
      scheduler.advance(by: 0)  // synctest.Wait()
      #expect(called.withLock { $0 }, "AfterFunc not called after cancel")
    }
  }

  /// The Go blog, on a test whose goroutines all block with no timer to fire: `synctest` panics
  /// with a deadlock at once. Here the world fails at once, naming the waits, and ends them.
  @Test func goSynctestDeadlock() async {
    await withKnownIssue {
      await withVirtualTime(stallTimeout: .seconds(3600)) { _ in
        let channel = AsyncStream<Int>.makeStream()
        // Receive from a channel nothing will ever send on.
        for await _ in channel.stream {}
        withExtendedLifetime(channel.continuation) {}
      }
    } matching: { issue in
      let report = issue.comments.first?.rawValue ?? ""
      return report.hasPrefix("The test's world is deadlocked at tick 0")
        && report.contains(
          "- the test waits in AnchorsTests.goSynctestDeadlock() for a continuation")
    }
  }
}
