import CMarbleRuntime
import Dispatch

/// Real time for Marbles' own waits, wherever they run.
package enum RealTime {
  /// Runs `body` with this thread's readings real.
  package static func reading<Result>(_ body: () throws -> Result) rethrows -> Result {
    marbles_real_time_begin()
    defer { marbles_real_time_end() }
    return try body()
  }

  /// A Dispatch deadline `duration` from now, in real time.
  static func deadline(after duration: Duration) -> DispatchTime {
    let nanoseconds = duration.saturatingNanoseconds
    // NB: a wait of 292 years or more is a wait for ever (`DispatchTime`'s addition would trap).
    guard nanoseconds < .max else { return .distantFuture }
    return reading { DispatchTime.now() + DispatchTimeInterval.nanoseconds(Int(nanoseconds)) }
  }

  /// Whether readings on this thread are virtual now.
  static var isVirtualHere: Bool {
    marbles_reads_virtual_time()
  }
}

extension Duration {
  /// The duration in whole nanoseconds, clamped to `Int64`'s range (292 years either way): the one
  /// conversion of a duration for the C clock and for Marbles' own real-time waits, so that a
  /// `stallTimeout` of `.seconds(.max)` means "for ever" instead of a trap.
  var saturatingNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
    guard !overflow, !overflowAgain else { return seconds < 0 ? .min : .max }
    return total
  }
}
