import MarbleTesting
import Marbles
import Synchronization
import XCTest

/// XCTest's synchronous waits drive the world from any test method, `async` ones too: a
/// `@MainActor` test that blocks the main thread in `waitForExpectations(timeout:)` waits for the
/// world's work, which runs meanwhile — the 0.5 s sleep in virtual time, at once. On 2026-11-28's
/// `main` the wait failed after 5 s of real time with the sleep still pending.
final class XCTestWaitsXCTests: XCTestCase {
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  @MainActor func testWaitForExpectationsInAnAsyncTestMethodIsMetByWorldWork() async throws {
    let done = expectation(description: "fetched")
    Task.detached {
      try await Task.sleep(for: .milliseconds(500))
      done.fulfill()
    }
    waitForExpectations(timeout: 5)
    XCTAssertEqual(TestScheduler.current?.now, 500)
  }
}

/// The same, in a test whose first line makes the scheduler.
final class XCTestWaitsSchedulerLineXCTests: XCTestCase {
  @MainActor func testWaitForExpectationsAfterTheSchedulerLineIsMetByWorldWork() async throws {
    let scheduler = TestScheduler()
    let done = expectation(description: "fetched")
    Task.detached {
      try await Task.sleep(for: .milliseconds(500))
      done.fulfill()
    }
    waitForExpectations(timeout: 5)
    XCTAssertEqual(scheduler.now, 500)
  }
}

/// While XCTest's wait blocks the main thread, the world does not move time past a Dispatch block
/// of its own that has not run: the block handed to a private queue runs first, and the sleeper
/// due a second later still sleeps (found porting Nimble: its waits that end in an
/// `OperationQueue`'s block timed out now and then, the world's time moved first).
final class XCTestWaitsForBlocksXCTests: XCTestCase {
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  @MainActor func testAWaitedBlockOnAQueueRunsBeforeTimeMoves() async throws {
    let ran = expectation(description: "the block ran")
    let start = ContinuousClock.now
    let hasWoken = Mutex(false)
    let sleeper = Task.detached {
      try? await Task.sleep(for: .seconds(1))
      hasWoken.withLock { $0 = true }
      return ContinuousClock.now
    }
    DispatchQueue(label: "XCTestWaitsForBlocksXCTests").async {
      Thread.sleep(forTimeInterval: 0.2)  // real work
      XCTAssertFalse(hasWoken.withLock { $0 }, "time moved before the block ran")
      ran.fulfill()
    }
    waitForExpectations(timeout: 5)
    let woke = await sleeper.value
    XCTAssertEqual(woke - start, .seconds(1))
  }
}
