@_spi(Internals) import Signals
import Synchronization

/// A scheduler's place on its world's timeline: the world's time is one line, in nanoseconds from
/// its first scheduler's tick 0, and every scheduler of the world is a view of it in ticks of its
/// own, from where the world was when it was made (``TaskDriver/origin``).
extension SchedulerCore {
  /// Where tick `tick` falls on the world's timeline, in nanoseconds (saturating).
  func timelineNanoseconds(atTick tick: Int) -> Int64 {
    let origin = driver.origin.load(ordering: .relaxed)
    let elapsed: Int64
    // NB: 64-bit arithmetic where it is exact: every step of a run moves the clock here, and the
    // 128-bit conversion cost most of a step in a debug build.
    if let tickNanoseconds, tick >= 0,
      case (let product, false) = Int64(tick).multipliedReportingOverflow(by: tickNanoseconds)
    {
      elapsed = product
    } else {
      elapsed = self.elapsed(atTick: max(0, tick)).saturatingNanoseconds
    }
    let (sum, overflow) = origin.addingReportingOverflow(elapsed)
    return overflow ? .max : sum
  }

  /// The last tick at or before `nanoseconds` on the world's timeline (0 before tick 0).
  func tick(atTimelineNanoseconds nanoseconds: Int64) -> Int {
    let elapsed = nanoseconds - driver.origin.load(ordering: .relaxed)
    guard elapsed > 0 else { return 0 }
    if let tickNanoseconds { return Int(elapsed / tickNanoseconds) }
    let ticks = Int128(elapsed) * 1_000_000_000 / tickAttoseconds
    return ticks > Int128(Int.max) ? .max : Int(ticks)
  }

  /// The first tick at or after `nanoseconds` on the world's timeline (0 before tick 0): where a
  /// deadline read from the world's clock falls.
  func firstTick(atOrAfterTimelineNanoseconds nanoseconds: Int64) -> Int {
    let (elapsed, overflow) = nanoseconds.subtractingReportingOverflow(
      driver.origin.load(ordering: .relaxed))
    guard !overflow else { return nanoseconds < 0 ? 0 : .max }
    return ticks(.nanoseconds(elapsed))
  }

  /// Where the clock is on the world's timeline.
  var timelineNow: Int64 {
    timelineNanoseconds(atTick: now)
  }

  /// The tick of the next action that has not been cancelled, if one is waiting: where the world
  /// may move next. An action due before ``now`` (a scheduler that fell behind its world) is due
  /// now.
  var nextActionTick: Int? {
    state.withLock { state in
      state.time.dropCancelledHead().map { max($0, state.time.now) }
    }
  }

  /// Moves the clock forward to `tick` without running anything — the world went on while another
  /// of its schedulers was on top — unless a call of the test drives it now. Actions due before
  /// `tick` stay in line, and run at the clock's tick when it is next driven.
  func catchUp(to tick: Int) {
    state.withLock { state in
      guard !state.isRunning, tick > state.time.now else { return }
      setNow(tick, in: &state)
    }
  }
}
