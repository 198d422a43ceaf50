import MarbleTesting
import Marbles
import Observation
import Synchronization
import TestSupport
import XCTest

/// Standard sleeps in virtual time from XCTest: a synchronous `@MainActor` test (no current
/// task), an asynchronous one, and nonisolated ones.
@MainActor final class BareSleepSearchViewModelXCTests: XCTestCase {
  func testTheSearchHappensExactlyThreeHundredMillisecondsAfterTheLastKeystroke() {
    let scheduler = TestScheduler()
    let model = BareSleepSearchViewModel()
    model.query = "sw"
    scheduler.advance(by: .milliseconds(299))
    XCTAssertEqual(model.searchCount, 0)
    scheduler.advance(by: .milliseconds(1))
    XCTAssertEqual(model.searchCount, 1)
    scheduler.advance(by: .milliseconds(99))
    XCTAssertEqual(model.results, [])
    scheduler.advance(by: .milliseconds(1))
    XCTAssertEqual(model.results, ["swift", "swiftui", "sweet"])
    XCTAssertFalse(scheduler.hasScheduledWork)
  }

  func testATypistsStaleSearchIsCancelledInAnAsyncTest() async {
    let scheduler = TestScheduler()
    let model = BareSleepSearchViewModel()
    model.query = "m"
    scheduler.advance(by: .milliseconds(350))
    XCTAssertEqual(model.searchCount, 1, "the search for m started at 300 ms")
    model.query = "sw"
    scheduler.run()
    XCTAssertEqual(model.searchCount, 2)
    XCTAssertEqual(model.results, ["swift", "swiftui", "sweet"], "m's answer never lands")
    XCTAssertEqual(scheduler.now, 750)
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func testStepByStepOnTheMainActor() {
    let scheduler = TestScheduler()
    let model = BareSleepSearchViewModel()
    let results = scheduler.record(Observations { model.searchCount })
    XCTAssertEqual(results.nextValue(), 0)
    model.query = "sw"
    XCTAssertEqual(results.nextValue(), 1)
    XCTAssertEqual(scheduler.now, 300)
    results.cancelAndIgnoreRemainingEvents()
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func testATaskImmediateModel() {
    let scheduler = TestScheduler()
    let loader = ImmediateLoader()
    loader.load()
    scheduler.advance(by: 199)
    XCTAssertNotEqual(loader.state, "loaded")
    scheduler.advance(by: 1)
    XCTAssertEqual(loader.state, "loaded")
  }
}

final class VirtualSleepsXCTests: XCTestCase {
  func testATaskStartedInASynchronousTestSleepsInVirtualTime() {
    let scheduler = TestScheduler()
    let woke = Mutex<Int?>(nil)
    Task {
      try await Task.sleep(for: .milliseconds(5))
      woke.withLock { $0 = scheduler.now }
    }
    scheduler.advance(by: 4)
    XCTAssertNil(woke.withLock { $0 })
    scheduler.advance(by: 1)
    XCTAssertEqual(woke.withLock { $0 }, 5)
  }

  func testATaskStartedInAnAsyncTestSleepsInVirtualTime() async throws {
    let scheduler = TestScheduler()
    let task = Task {
      try await ContinuousClock().sleep(for: .seconds(2))
      return scheduler.now
    }
    scheduler.advance(by: .seconds(2))
    let woke = try await task.value
    XCTAssertEqual(woke, 2_000)
  }

  func testStepByStepFromAnAsyncTest() async throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("--a-|"))
    XCTAssertEqual(results.nextValue(), "a")
    XCTAssertEqual(scheduler.now, 2)
    results.expectCompletion()
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  func testTaskImmediateInAnAsyncTestBody() async {
    let scheduler = TestScheduler()
    let woke = Mutex<[Int]>([])
    Task.immediate {
      woke.withLock { $0.append(scheduler.now) }
      try await SuspendingClock().sleep(for: .milliseconds(3))
      woke.withLock { $0.append(scheduler.now) }
    }
    XCTAssertEqual(woke.withLock { $0 }, [0])
    scheduler.advance(by: 3)
    XCTAssertEqual(woke.withLock { $0 }, [0, 3])
  }
}
