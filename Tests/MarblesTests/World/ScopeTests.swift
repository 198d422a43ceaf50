import Dispatch
import Foundation
import MarbleTesting
import Marbles
import RaceBugs
import Synchronization
import TestSupport
import Testing

/// What belongs to the test's world and what stays real.
@Suite struct ScopeTests {
  /// Real time elapsed while `body` runs, read on real clocks whatever the thread reads.
  func realTime(of body: () -> Void) -> Duration {
    let start = RealTime.reading { ContinuousClock.now }
    body()
    return RealTime.reading { ContinuousClock.now } - start
  }

  /// A timed wait that waited at least its own timeout in real time (on 2026-11-26's `main` it
  /// took 0.0001 s for 0.2 s with real time ahead of virtual time: the deadline was read on the
  /// other clock). A shorter wait is a failure whatever the machine's load; a longer one is not.
  func waitedItsOwnTimeout(_ took: Duration) -> Bool { took >= .milliseconds(195) }

  /// Calls `end` from a plain thread after `seconds` of real time unless `finished` is set
  /// first: a wait whose deadline was read on the virtual clock, an hour ahead, ends there instead
  /// of timing out (on 2026-11-26's `main` it did not time out), and the test says so by what
  /// the wait returns, not by how long it took.
  func ending(after seconds: Int, _ end: @escaping @Sendable () -> Void) -> RaceBugs.PassedFlag {
    let finished = RaceBugs.PassedFlag()
    let thread = Thread {
      for _ in 0..<(seconds * 100) where !finished.isSet { blockForRealTime(microseconds: 10_000) }
      if !finished.isSet { end() }
    }
    thread.start()
    return finished
  }

  @Test(arguments: [Duration.seconds(3600), .zero])
  func aSemaphoreTimeoutWaitsItsOwnRealTime(_ ahead: Duration) {
    withVirtualTime { scheduler in
      scheduler.advance(by: ahead)
      // Virtual time behind real time: the world stands still while real time passes.
      Thread.sleep(forTimeInterval: 0.05)
      let semaphore = DispatchSemaphore(value: 0)
      let finished = ending(after: 30) { semaphore.signal() }
      var result = DispatchTimeoutResult.success
      let took = realTime { result = semaphore.wait(timeout: .now() + .milliseconds(200)) }
      finished.set()
      #expect(result == .timedOut)
      #expect(waitedItsOwnTimeout(took), "\(took)")
    }
  }

  @Test(arguments: [Duration.seconds(3600), .zero])
  func aGroupTimeoutWaitsItsOwnRealTime(_ ahead: Duration) {
    withVirtualTime { scheduler in
      scheduler.advance(by: ahead)
      let group = DispatchGroup()
      group.enter()
      let finished = ending(after: 30) { group.leave() }
      var result = DispatchTimeoutResult.success
      let took = realTime { result = group.wait(timeout: .now() + .milliseconds(200)) }
      finished.set()
      #expect(result == .timedOut)
      #expect(waitedItsOwnTimeout(took), "\(took)")
      if result == .timedOut { group.leave() }
    }
  }

  @Test(arguments: [Duration.seconds(3600), .zero])
  func aConditionTimeoutWaitsItsOwnRealTime(_ ahead: Duration) {
    withVirtualTime { scheduler in
      scheduler.advance(by: ahead)
      let condition = NSCondition()
      let signalled = Mutex(false)
      let finished = ending(after: 30) {
        condition.lock()
        signalled.withLock { $0 = true }
        condition.signal()
        condition.unlock()
      }
      condition.lock()
      var woken = true
      let took = realTime {
        woken = condition.wait(until: Date().addingTimeInterval(0.2))
      }
      finished.set()
      condition.unlock()
      #expect(!woken && !signalled.withLock { $0 })
      #expect(waitedItsOwnTimeout(took), "\(took)")
    }
  }

  /// `assertTable` makes a scheduler of its own, on top of the world's: when it returns, the
  /// test's readings are the world's still (on 2026-11-26's `main` they turned real), on from
  /// where the table's frames took the world's time (one timeline: never back).
  @Test func assertTableInsideAWorldLeavesTheTestsReadingsVirtual() async throws {
    try await withVirtualTime { _ in
      try await Task.sleep(for: .seconds(3600))
      let before = Date()
      assertTable(
        """
        src   hot   -a-b-|
        sub   sub   ^-----
        sub   gets  -a-b-|
        """
      ) { $0["src"] }
      let after = Date()
      #expect(after >= before)
      #expect(after.timeIntervalSince(before) < 0.01, "the table's few frames of 1 ms")
      try await Task.sleep(for: .seconds(1))
      #expect(Date() == after.addingTimeInterval(1))
    }
  }

  /// The compiler's fix-it for an unused `let` keeps the test virtual: the world keeps its first
  /// scheduler (on 2026-11-26's `main` the sleep was real, and took its 10 s).
  @Test func anUnusedSchedulerStillOpensTheWorld() async throws {
    _ = TestScheduler()
    let start = ContinuousClock.now
    try await Task.sleep(for: .seconds(10))
    #expect(start.duration(to: .now) == .seconds(10))
    #expect(TestScheduler.current?.now == 10_000)
  }

  /// A Dispatch timer source on a queue of its own, made in the world, fires at its virtual
  /// deadlines, on its queue.
  @Test func aTimerSourceFiresAtItsVirtualDeadlines() async throws {
    let fired = Mutex<[Int]>([])
    try await withVirtualTime { scheduler in
      let queue = DispatchQueue(label: "a timer's own queue")
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.setEventHandler {
        dispatchPrecondition(condition: .onQueue(queue))
        fired.withLock { $0.append(scheduler.now) }
      }
      timer.schedule(deadline: .now() + .milliseconds(300), repeating: .milliseconds(200))
      timer.activate()
      try await Task.sleep(for: .seconds(1))
      timer.cancel()
      try await Task.sleep(for: .seconds(1))
    }
    #expect(fired.withLock { $0 } == [300, 500, 700, 900])
  }
}

/// A scheduler made with no test of its own — on a thread of Dispatch's or one's own, where no
/// task and no test is current — in Swift Testing's run (`swift test` runs XCTest in another
/// process) opens a world that closes with the scheduler. On 2026-11-28's `main` it was taken for
/// an XCTest case's that the watcher had not seen begin, and its world waited for XCTest to say
/// the case finished, which never came: later work on that thread (a `concurrentPerform`
/// iteration's Dispatch worker) was routed to it and never ran, and a full parallel run hung.
@Suite struct NoTestOfItsOwnTests {
  @Test func aSchedulerMadeOnAThreadWithNoTestLeavesItsThreadAsItWasWhenReleased() async throws {
    let (ran, isInAWorld) = try await offThePool {
      do {
        let scheduler = TestScheduler()
        withExtendedLifetime(scheduler) {}
      }
      let isInAWorld = World.current != nil
      // Later work on the thread: a task it starts runs, in real time (given five minutes: under a
      // parallel run the cooperative pool may be busy for long — under ThreadSanitizer this once
      // waited out a one-minute limit and failed, and took 44 s in a run that passed).
      let done = DispatchSemaphore(value: 0)
      Task { done.signal() }
      return (done.wait(timeout: .now() + .seconds(300)) == .success, isInAWorld)
    }
    #expect(ran, "a task started on the thread after the scheduler was released never ran")
    #expect(!isInAWorld)
  }
}
