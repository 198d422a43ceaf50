@_spi(Internals) import Signals
import Synchronization

/// One timeline: a world's time is one line, whatever schedulers it has.
///
/// The line is in nanoseconds from the world's first scheduler's tick 0, and the world's one
/// clock (``World/clock``, what every standard reading in its work reads) is on it: each
/// scheduler brings the clock to where it is, never back, so the clock says the furthest any has
/// gone. A scheduler made inside the world (by the test, by `assertTable`, by a task of the world)
/// starts where the world is: its tick 0 is the world's time then, so a reading never goes back.
/// While the root waits, the world moves to whichever of its schedulers' actions is first on the
/// line, and brings every other scheduler there. A scheduler released hands its time on: the
/// others catch up to where it went.
extension World {
  /// Puts a scheduler the world takes at the world's time: its tick 0 is now on the timeline.
  func placeOnTheTimeline(_ driver: TaskDriver) {
    let drivers = state.withLock { $0.isClosed ? [] : $0.drivers }
    driver.origin.store(timelineNow(of: drivers), ordering: .relaxed)
  }

  /// The world's time: the furthest any of `drivers` has gone on the timeline.
  func timelineNow(of drivers: [TaskDriver]) -> Int64 {
    drivers.reduce(0) { now, driver in max(now, driver.core?.timelineNow ?? 0) }
  }

  /// Brings every scheduler of the world that is behind `nanoseconds` on the timeline there,
  /// running nothing.
  func catchUp(to nanoseconds: Int64) {
    for driver in drivers {
      guard let core = driver.core else { continue }
      core.catchUp(to: core.tick(atTimelineNanoseconds: nanoseconds))
    }
  }

  /// Moves the world to its next due action, and runs it: the top scheduler's when it is the only
  /// one; else whichever scheduler's next action is first on the timeline (the top's first at a
  /// tie), with every other scheduler's clock brought to that time.
  ///
  /// - Returns: Whether an action ran.
  func runNextDueAction(top: TaskDriver, drivers: [TaskDriver]) -> Bool {
    guard drivers.count > 1 else { return top.core?.runNextDueAction() ?? false }
    var first: (core: SchedulerCore, at: Int64)?
    for driver in [top] + drivers.reversed() {
      guard let core = driver.core, let tick = core.nextActionTick else { continue }
      let at = core.timelineNanoseconds(atTick: tick)
      if first.map({ at < $0.at }) ?? true { first = (core, at) }
    }
    guard let first else { return false }
    for driver in drivers {
      guard let core = driver.core, core !== first.core else { continue }
      core.catchUp(to: core.tick(atTimelineNanoseconds: first.at))
    }
    return first.core.runNextDueAction()
  }
}
