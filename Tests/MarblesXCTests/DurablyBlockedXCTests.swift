import MarbleTesting
import Marbles
import TestSupport
import XCTest

/// A `@MainActor` async XCTest whose first line makes the scheduler: the test's task was on the
/// main actor before the world opened, and its hops back there still belong to the world — its
/// readings are virtual, and time does not move while its hops are under way.
final class DurablyBlockedXCTests: XCTestCase {
  @MainActor func testReadingsAreVirtualAfterASleep() async throws {
    let scheduler = TestScheduler()
    let start = ContinuousClock.now
    try await Task.sleep(for: .seconds(3))
    XCTAssertEqual(ContinuousClock.now - start, .seconds(3))
    XCTAssertEqual(scheduler.now, 3000)
  }

  @MainActor func testSubmissionsToAnActorThrottleAtOneTick() async throws {
    let scheduler = TestScheduler()
    let throttle = Throttle()
    for value in ["a", "b", "c", "d", "e"] { await throttle.submit(value) }
    XCTAssertEqual(scheduler.now, 0)
    try await Task.sleep(for: .seconds(2))
    await throttle.submit("f")
    let log = await throttle.log
    XCTAssertEqual(log, "af")
  }
}
