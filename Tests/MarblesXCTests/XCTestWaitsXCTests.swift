import MarbleTesting
import Marbles
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
