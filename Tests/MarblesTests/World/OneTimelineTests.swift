import Foundation
import MarbleTesting
import Marbles
import Synchronization
import Testing

/// One timeline: a scheduler made inside a world — by the test, by a nested `withVirtualTime`, by
/// a task of the world — starts where the world's time is, so a reading never goes back, and the
/// world moves to whichever of its schedulers' work is due first while the test waits.
@Suite struct OneTimelineTests {
  /// The readings of every standard clock, at once.
  struct Readings {
    let continuous = ContinuousClock.now
    let suspending = SuspendingClock.now
    let date = Date()

    /// Whether none of `later`'s readings is before this one's.
    func isNotAfter(_ later: Readings) -> Bool {
      continuous <= later.continuous && suspending <= later.suspending && date <= later.date
    }
  }

  @Test(.virtualTime) func aSchedulerMadeAfterTenSecondsReadsOnFromThere() async throws {
    try await Task.sleep(for: .seconds(10))
    let before = Readings()
    let scheduler = TestScheduler()
    let after = Readings()
    #expect(before.isNotAfter(after))
    #expect(after.continuous - before.continuous < .milliseconds(1))
    #expect(scheduler.now == 0, "its own ticks count from where it started")
    scheduler.advance(by: .seconds(2))
    #expect(ContinuousClock.now - before.continuous == .seconds(2))
  }

  @Test(.virtualTime) func aNestedWithVirtualTimeReadsOnFromTheWorldsTime() async throws {
    try await Task.sleep(for: .seconds(10))
    let before = Readings()
    let inside = withVirtualTime { scheduler in
      (Readings(), scheduler.now)
    }
    let insideAsync = await withVirtualTime { scheduler in
      try? await Task.sleep(for: .seconds(1))
      return (Readings(), scheduler.now)
    }
    #expect(inside.0.isNotAfter(insideAsync.0))
    #expect(insideAsync.0.continuous - before.continuous == .seconds(1))
    #expect(insideAsync.1 == 1000)
    #expect(before.isNotAfter(inside.0))
    #expect(inside.0.continuous - before.continuous < .milliseconds(1))
    #expect(inside.1 == 0)
  }

  @Test(.virtualTime) func aNestedWithVirtualTimeAwaitingAnOuterSleeperDrivesIt() async {
    let start = ContinuousClock.now
    let outer = Task {
      try? await Task.sleep(for: .seconds(1))
      return 5
    }
    let value = await withVirtualTime { _ in await outer.value }
    #expect(value == 5)
    #expect(ContinuousClock.now - start == .seconds(1))
  }

  @Test(.virtualTime) func aChildTasksSchedulerAwaitingAnOuterSleeperDrivesIt() async {
    let start = ContinuousClock.now
    let outer = Task {
      try? await Task.sleep(for: .seconds(3))
      return "outer"
    }
    let child = Task {
      let scheduler = TestScheduler()
      let value = await outer.value
      return (value, scheduler.now)
    }
    let (value, childNow) = await child.value
    #expect(value == "outer")
    #expect(childNow == 3000, "the child's scheduler moved with the world")
    #expect(ContinuousClock.now - start == .seconds(3))
  }

  /// The world's schedulers' work runs in the order of the timeline, whichever scheduler it is on.
  @Test(.virtualTime) func workOnTwoSchedulersRunsInTimelineOrder() async throws {
    let log = Log()
    try await Task.sleep(for: .milliseconds(500))
    Task {
      try? await Task.sleep(for: .milliseconds(1500))
      log.append("1.5 s, started on the world's first scheduler")
    }
    // The task's sleep begins at 0.5 s, on the world's first scheduler.
    await Task.yield()
    let inner = TestScheduler()
    Task {
      try? await Task.sleep(for: .seconds(2))
      log.append("2 s, started on the inner scheduler")
    }
    inner.schedule(after: .seconds(1)) { log.append("1 s, an action of the inner scheduler") }
    try await Task.sleep(for: .seconds(3))
    #expect(
      log.all == [
        "1 s, an action of the inner scheduler", "1.5 s, started on the world's first scheduler",
        "2 s, started on the inner scheduler",
      ])
    withExtendedLifetime(inner) {}
  }

  /// A world has one clock: work on a scheduler that is behind the world's time reads the world's
  /// time, never an earlier one. On 2026-11-29's `main` each scheduler had a clock of its own,
  /// placed on the timeline once: an action of the world's first scheduler, moved 1 s while a
  /// later one had moved the world 10 s, read 9 s back.
  @Test(.virtualTime) func workOnASchedulerThatIsBehindReadsTheWorldsTime() async throws {
    let behind = TestScheduler()
    let ahead = TestScheduler()
    ahead.advance(by: .seconds(10))
    let worldsTime = Readings()
    let read = Mutex<Readings?>(nil)
    _ = behind.schedule(after: .seconds(1)) { read.withLock { $0 = Readings() } }
    behind.advance(by: .seconds(1))
    let inTheAction = try #require(read.withLock { $0 })
    #expect(worldsTime.isNotAfter(inTheAction))
    #expect(inTheAction.continuous - worldsTime.continuous < .milliseconds(1))
    #expect(worldsTime.isNotAfter(Readings()))
    withExtendedLifetime(ahead) {}
  }

  /// A scheduler that goes hands its time on: the readings of the one below go on from there.
  @Test(.virtualTime) func aReleasedSchedulersTimeIsKept() async throws {
    let start = ContinuousClock.now
    do {
      let scheduler = TestScheduler()
      scheduler.advance(by: .seconds(5))
      #expect(ContinuousClock.now - start == .seconds(5))
    }
    #expect(ContinuousClock.now - start >= .seconds(5), "no reading goes back")
    try await Task.sleep(for: .seconds(1))
    #expect(ContinuousClock.now - start == .seconds(6))
  }

  /// An outer sleeper due while a scheduler made later was driven explicitly past it wakes once
  /// the world is driven again, at the world's time.
  @Test(.virtualTime) func anOuterSleeperPassedByAnInnerAdvanceWakesAtTheWorldsTime() async {
    let start = ContinuousClock.now
    let outer = Task {
      try? await Task.sleep(for: .seconds(1))
      return ContinuousClock.now
    }
    // The sleeper starts its sleep at tick 0.
    await Task.yield()
    do {
      let scheduler = TestScheduler()
      scheduler.advance(by: .seconds(5))
    }
    let woke = await outer.value
    #expect(woke - start == .seconds(5), "it woke when the world was driven again")
    #expect(ContinuousClock.now - start == .seconds(5), "the world did not go back")
  }
}
