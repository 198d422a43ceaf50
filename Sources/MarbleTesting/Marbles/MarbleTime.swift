/// Duration arithmetic for marbles, in whole attoseconds, so that `1.5s` or a tick of a third of a
/// millisecond convert exactly, with no floating point.
enum MarbleTime {
  static let attosecondsPerMillisecond: Int128 = 1_000_000_000_000_000
  static let attosecondsPerSecond: Int128 = 1_000_000_000_000_000_000
  static let attosecondsPerMinute: Int128 = 60 * attosecondsPerSecond

  /// `duration` in attoseconds.
  static func attoseconds(_ duration: Duration) -> Int128 {
    let (seconds, attoseconds) = duration.components
    return Int128(seconds) * attosecondsPerSecond + Int128(attoseconds)
  }

  /// `attoseconds` as a `Duration`.
  static func duration(attoseconds: Int128) -> Duration {
    Duration(
      secondsComponent: Int64(attoseconds / attosecondsPerSecond),
      attosecondsComponent: Int64(attoseconds % attosecondsPerSecond))
  }

  /// The length of one tick in attoseconds.
  ///
  /// - Precondition: `tick > .zero`, as for ``TestScheduler/init(tick:stepLimit:)``.
  static func tickAttoseconds(_ tick: Duration) -> Int128 {
    precondition(tick > .zero, "A marble tick must be positive (got \(tick)).")
    return attoseconds(tick)
  }

  /// How many whole ticks `attoseconds` lasts, rounding up (the ``TestScheduler/ticks(_:)`` rule,
  /// so nothing happens early); `nil` if that is more than `Int.max`.
  static func ticks(attoseconds: Int128, tick: Int128) -> Int? {
    guard attoseconds > 0 else { return 0 }
    let ticks = attoseconds / tick + (attoseconds % tick == 0 ? 0 : 1)
    return ticks > Int128(Int.max) ? nil : Int(ticks)
  }

  /// A time progression in milliseconds that parses back to exactly `attoseconds`: `40ms`,
  /// `0.5ms`, `0.333333333333333ms`.
  static func millisecondsText(attoseconds: Int128) -> String {
    let whole = attoseconds / attosecondsPerMillisecond
    let fraction = attoseconds % attosecondsPerMillisecond
    guard fraction != 0 else { return "\(whole)ms" }
    var digits = String(fraction)
    digits = String(repeating: "0", count: 15 - digits.count) + digits
    while digits.last == "0" { digits.removeLast() }
    return "\(whole).\(digits)ms"
  }
}
