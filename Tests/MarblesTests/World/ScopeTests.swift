import Dispatch
import Foundation
import MarbleTesting
import Marbles
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

  /// A timed wait that took at least its own timeout, and not so much more that it was measured on
  /// another clock (on 2026-11-26's `main`, 3 s for 0.2 s with virtual time an hour ahead, and
  /// 0.0001 s with real time ahead).
  func isItsOwnTimeout(_ took: Duration) -> Bool {
    took >= .milliseconds(195) && took < .seconds(2)
  }

  @Test(arguments: [Duration.seconds(3600), .zero])
  func aSemaphoreTimeoutWaitsItsOwnRealTime(_ ahead: Duration) {
    withVirtualTime { scheduler in
      scheduler.advance(by: ahead)
      // Virtual time behind real time: the world stands still while real time passes.
      Thread.sleep(forTimeInterval: 0.05)
      let semaphore = DispatchSemaphore(value: 0)
      var result = DispatchTimeoutResult.success
      let took = realTime { result = semaphore.wait(timeout: .now() + .milliseconds(200)) }
      #expect(result == .timedOut)
      #expect(isItsOwnTimeout(took), "\(took)")
    }
  }

  @Test(arguments: [Duration.seconds(3600), .zero])
  func aGroupTimeoutWaitsItsOwnRealTime(_ ahead: Duration) {
    withVirtualTime { scheduler in
      scheduler.advance(by: ahead)
      let group = DispatchGroup()
      group.enter()
      var result = DispatchTimeoutResult.success
      let took = realTime { result = group.wait(timeout: .now() + .milliseconds(200)) }
      #expect(result == .timedOut)
      #expect(isItsOwnTimeout(took), "\(took)")
      group.leave()
    }
  }

  @Test(arguments: [Duration.seconds(3600), .zero])
  func aConditionTimeoutWaitsItsOwnRealTime(_ ahead: Duration) {
    withVirtualTime { scheduler in
      scheduler.advance(by: ahead)
      let condition = NSCondition()
      condition.lock()
      var signalled = true
      let took = realTime { signalled = condition.wait(until: Date().addingTimeInterval(0.2)) }
      condition.unlock()
      #expect(!signalled)
      #expect(isItsOwnTimeout(took), "\(took)")
    }
  }

  /// `assertTable` makes a scheduler of its own, on top of the world's: when it returns, the
  /// test's readings are the world's still (on 2026-11-26's `main` they turned real).
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
      #expect(Date() == before)
      try await Task.sleep(for: .seconds(1))
      #expect(Date() == before.addingTimeInterval(1))
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
      // Later work on the thread: a task it starts runs, in real time (given a minute: under a
      // parallel run the cooperative pool may be busy for seconds).
      let done = DispatchSemaphore(value: 0)
      Task { done.signal() }
      return (done.wait(timeout: .now() + .seconds(60)) == .success, isInAWorld)
    }
    #expect(ran, "a task started on the thread after the scheduler was released never ran")
    #expect(!isInAWorld)
  }
}
