import MarbleTesting
import Marbles
import Observation
import Signals
import Synchronization
import TestSupport
import XCTest

/// The driven world from XCTest, where a synchronous test method has no current task: the tasks a
/// test starts are driven by the scheduler it made on its thread.
@MainActor final class SearchViewModelXCTests: XCTestCase {
  func testTheSearchHappensExactlyThreeHundredMillisecondsAfterTheLastKeystroke() {
    let scheduler = TestScheduler()
    let model = SearchViewModel(clock: scheduler.clock, api: FakeSearchAPI(clock: scheduler.clock))
    model.query = "sw"
    scheduler.advance(by: .milliseconds(299))
    XCTAssertEqual(model.searchCount, 0)
    scheduler.advance(by: .milliseconds(1))
    XCTAssertEqual(model.searchCount, 1)
    scheduler.advance(by: .milliseconds(100))
    XCTAssertEqual(model.results, ["swift", "swiftui", "sweet"])
  }

  func testATypistsStaleSearchIsCancelled() async {
    let scheduler = TestScheduler()
    let model = SearchViewModel(clock: scheduler.clock, api: FakeSearchAPI(clock: scheduler.clock))
    model.query = "m"
    scheduler.advance(by: .milliseconds(350))
    XCTAssertEqual(model.searchCount, 1, "the search for m started at 300 ms")
    model.query = "sw"
    scheduler.run()
    XCTAssertEqual(model.searchCount, 2)
    XCTAssertEqual(model.results, ["swift", "swiftui", "sweet"], "m's answer never lands")
    XCTAssertEqual(scheduler.now, 750)
  }
}

final class DrivenWorldXCTests: XCTestCase {
  func testATaskStartedInASynchronousTestIsDriven() {
    let scheduler = TestScheduler()
    let woke = Woke()
    Task {
      try await scheduler.clock.sleep(for: .milliseconds(5))
      woke.tick.withLock { $0 = scheduler.now }
    }
    scheduler.advance(by: 4)
    XCTAssertNil(woke.tick.withLock { $0 })
    scheduler.advance(by: 1)
    XCTAssertEqual(woke.tick.withLock { $0 }, 5)
  }

  final class Woke: Sendable {
    let tick = Mutex<Int?>(nil)
  }
}

/// Schedulers kept in a test case's properties are made when XCTest builds its suites, before any
/// test runs: outside any test, they drive only their own work, and leave every test's time and
/// tasks as they are. A scheduler `setUp` makes opens the test's world: the tasks the test starts
/// are driven by it, until the test ends.
final class SchedulerInAPropertyXCTests: XCTestCase {
  let scheduler = TestScheduler()
  var madeInSetUp: TestScheduler!

  override func setUp() {
    madeInSetUp = TestScheduler()
  }

  func testThePropertysSchedulerDrivesItsOwnWorkOnly() {
    let woke = DrivenWorldXCTests.Woke()
    let scheduler = scheduler
    scheduler.schedule(after: .milliseconds(3)) { woke.tick.withLock { $0 = scheduler.now } }
    scheduler.advance(by: 2)
    XCTAssertNil(woke.tick.withLock { $0 })
    scheduler.advance(by: 1)
    XCTAssertEqual(woke.tick.withLock { $0 }, 3)
  }

  func testATaskIsDrivenBySetUpsScheduler() {
    let woke = DrivenWorldXCTests.Woke()
    let scheduler = madeInSetUp!
    Task {
      try await scheduler.clock.sleep(for: .milliseconds(3))
      woke.tick.withLock { $0 = scheduler.now }
    }
    scheduler.advance(by: 3)
    XCTAssertEqual(woke.tick.withLock { $0 }, 3)
  }

  /// XCTest runs an async test in a task it starts on the main thread: with schedulers alive in
  /// the properties and from `setUp`, that task is not held — the test runs — and the tasks it
  /// starts belong to the scheduler `setUp` made, until the test makes one of its own.
  func testAnAsyncTestRunsAndItsTasksAreDriven() async {
    let scheduler = madeInSetUp!
    let woke = DrivenWorldXCTests.Woke()
    Task {
      try await scheduler.clock.sleep(for: .milliseconds(2))
      woke.tick.withLock { $0 = scheduler.now }
    }
    scheduler.advance(by: 1)
    XCTAssertNil(woke.tick.withLock { $0 })
    scheduler.advance(by: 1)
    XCTAssertEqual(woke.tick.withLock { $0 }, 2)
    let own = TestScheduler()
    Task {
      try await own.clock.sleep(for: .milliseconds(5))
      woke.tick.withLock { $0 = own.now }
    }
    own.advance(by: 4)
    XCTAssertEqual(woke.tick.withLock { $0 }, 2)
    own.advance(by: 1)
    XCTAssertEqual(woke.tick.withLock { $0 }, 5)
  }
}
