import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals

/// XCTest's synchronous waits drive the world: the world's code that blocks the main thread in a
/// run loop, or keeps polling it — `wait(for:timeout:)`, `waitForExpectations(timeout:)` in an
/// `async` test method, `RunLoop.run(until:)` — waits for the world's work, which the world runs meanwhile on its own
/// thread: the ready jobs that are not bound for the main actor (which the blocked thread holds),
/// then the next due action, moving time, until the run loop wakes.
///
/// The clock wrappers tell both: a run loop's blocking wait (`marbles_set_run_loop_handler`: Core
/// Foundation waits in ppoll on Linux; on Darwin, not built here, in mach_msg, which is not
/// wrapped), and the main thread reading one virtual instant again and again
/// (`marbles_set_busy_wait_handler`: a run loop that finds nothing to wait for — inside a main
/// queue's block, the main queue is no source — returns at once, and XCTest's waiter polls).
extension World {
  /// Installs the run-loop handler, once.
  static func installRunLoopHandler() {
    _ = runLoopHandler
  }

  private static let runLoopHandler: Void = {
    marbles_set_run_loop_handler { waits in
      testsTaskWorld()?.rootSitsInARunLoop(waits)
    }
    marbles_set_busy_wait_handler {
      testsTaskWorld()?.rootBusyWaits()
    }
  }()

  /// The world whose test's own task runs here — its root, or a task its root thread started
  /// (XCTest's task of an `async` test method) — if any: a test framework's code with no task
  /// (XCTest waiting for the test method's task to end) waits for nothing of the world.
  private static func testsTaskWorld() -> World? {
    guard let id = Jobs.currentTaskID, let world = TaskDriver.current?.world,
      world.isRoot(id) || world.state.withLock({ $0.coRoots.contains(id) })
    else { return nil }
    return world
  }

  /// How long after the main thread last kept reading one instant the world goes on driving for
  /// it.
  static let busyWaitPatience: Int64 = 50_000_000

  /// The world's code on the main thread — its root, or a task its root thread started — begins
  /// or ends a blocking wait in its run loop.
  func rootSitsInARunLoop(_ sits: Bool) {
    state.withLock { $0.isRootInARunLoop = sits }
    if sits { startDrivingForABlockedRoot() } else { wake() }
  }

  /// The world's code on the main thread keeps reading one instant: it waits for time.
  func rootBusyWaits() {
    let now = SchedulerCore.realNanoseconds()
    state.withLock { $0.lastBusyWait = now }
    startDrivingForABlockedRoot()
  }

  /// Starts driving on a thread of the world's own, unless it does already.
  private func startDrivingForABlockedRoot() {
    let starts = state.withLock { state -> Bool in
      guard !state.isDrivingForABlockedRoot, !state.isClosed, !state.hasGivenUp else {
        return false
      }
      state.isDrivingForABlockedRoot = true
      return true
    }
    // NB: a thread of its own: the loop's queue may be waiting for the root's job to return.
    if starts { Platform.startThread { self.driveWhileTheRootBlocks() } }
  }

  /// Whether the world's code on the main thread still blocks: it sits in its run loop, or kept
  /// reading one instant within the last ``busyWaitPatience``.
  private var isRootBlocked: Bool {
    let now = SchedulerCore.realNanoseconds()
    return state.withLock { state in
      !state.isClosed && !state.hasGivenUp
        && (state.isRootInARunLoop || now - state.lastBusyWait < World.busyWaitPatience)
    }
  }

  /// Runs the world's work on a thread of its own while its code on the main thread blocks.
  private func driveWhileTheRootBlocks() {
    defer { state.withLock { $0.isDrivingForABlockedRoot = false } }
    while isRootBlocked {
      let drivers = state.withLock { $0.drivers }
      if let (job, driver) = takeJobOffTheMainActor(drivers) {
        driver.drain { _ = driver.run(job) }
        driver.forgetIfComplete(job.taskID)
        continue
      }
      guard let top else { return }
      // NB: the world-level step's one decision: time does not move past a Dispatch block of the
      // world not yet run, nor past a job a turn handed to the loop's queue.
      if case .moved = moveTime(top: top, drivers: drivers) { continue }
      // Nothing to run: the wait may end on its own (its timeout, work from outside, a block).
      _ = waitForArrivals(upTo: .milliseconds(5))
    }
  }

  /// The first ready job of the world that is neither bound for the main actor nor the root's.
  private func takeJobOffTheMainActor(_ drivers: [TaskDriver]) -> (TaskDriver.ReadyJob, TaskDriver)?
  {
    for driver in drivers.reversed() where driver.readyJobCount > 0 {
      let job = driver.readyQueue { ready -> TaskDriver.ReadyJob? in
        for offset in 0..<ready.count {
          let candidate = ready[offset: offset]
          if candidate.target != .main, !isRoot(candidate.taskID) {
            return ready.remove(atOffset: offset)
          }
        }
        return nil
      }
      if let job { return (job, driver) }
    }
    return nil
  }
}
