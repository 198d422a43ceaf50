import Dispatch
import Foundation
import MarbleTesting
import Marbles
import Synchronization
import TestSupport
import XCTest

// Readings of time are virtual only where the runtime code is compiled (Package.swift).
#if MARBLES_TESTED_RUNTIME

  /// "One clock" from XCTest: a synchronous method (no current task: the main thread's readings are
  /// the scheduler's while no task runs on it) and an async one (the test's own task).
  final class OneClockXCTests: XCTestCase {
    func testReadingsInASynchronousTestAreTheSchedulers() {
      let scheduler = TestScheduler()
      let start = ContinuousClock.now
      let dateStart = Date()
      let elapsed = Mutex<Duration?>(nil)
      Task {
        let taskStart = SuspendingClock.now
        try await Task.sleep(for: .milliseconds(300))
        elapsed.withLock { $0 = taskStart.duration(to: .now) }
      }
      scheduler.advance(by: .seconds(3))
      XCTAssertEqual(start.duration(to: .now), .seconds(3))
      XCTAssertEqual(Date().timeIntervalSince(dateStart), 3)
      XCTAssertEqual(elapsed.withLock { $0 }, .milliseconds(300))
    }

    func testATimeToLiveStampedInASynchronousTestExpiresOnTime() {
      let scheduler = TestScheduler()
      let cache = TimestampedCache(timeToLive: 3)
      cache.store("token", for: "user")
      scheduler.advance(by: .milliseconds(2_999))
      XCTAssertEqual(cache.value(for: "user"), "token")
      scheduler.advance(by: .milliseconds(1))
      XCTAssertNil(cache.value(for: "user"))
    }

    func testAPollLoopWithADeadlineEndsAtItInAnAsyncTest() async throws {
      let scheduler = TestScheduler()
      let polling = Task {
        try await pollUntilReady(every: .milliseconds(100), timeout: .seconds(5)) { false }
      }
      scheduler.run()
      let result = try await polling.value
      XCTAssertFalse(result.ready)
      XCTAssertEqual(result.polls, 50)
      XCTAssertEqual(scheduler.now, 5_000)
    }

    func testASleepInAnAsyncTestBodyIsAnAdvance() async throws {
      let scheduler = TestScheduler()
      let ran = Mutex<[Int]>([])
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
        ran.withLock { $0.append(scheduler.now) }
      }
      let start = Date()
      try await Task.sleep(for: .milliseconds(300))
      XCTAssertEqual(scheduler.now, 300)
      XCTAssertEqual(ran.withLock { $0 }, [200])
      XCTAssertEqual(Date().timeIntervalSince(start), 0.3, accuracy: 1e-6)
    }

    @MainActor func testAsyncAfterOnTheMainQueueFromAMainActorModel() {
      let scheduler = TestScheduler()
      let banner = BannerModel()
      banner.show("Saved")
      scheduler.advance(by: .milliseconds(2_999))
      XCTAssertEqual(banner.message, "Saved")
      scheduler.advance(by: .milliseconds(1))
      XCTAssertNil(banner.message)
    }
  }

#endif
