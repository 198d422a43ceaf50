import MarbleTesting
import Testing

/// A standard sleep's duration, read back from its real deadline: the roundest value between
/// what remained when Marbles saw it and that plus the real time that may have passed since the
/// caller read the clock.
@Suite struct SleepReadingTests {
  func reading(_ remaining: Duration, _ uncertainty: Duration) -> Duration {
    SleepReading.duration(remaining: remaining, uncertainty: uncertainty)
  }

  @Test func anUnpreemptedSleepReadsAsItselfToTheNanosecond() {
    #expect(reading(.nanoseconds(299_996_000), .microseconds(10)) == .milliseconds(300))
    #expect(reading(.nanoseconds(332_997_500), .microseconds(5)) == .milliseconds(333))
    #expect(reading(.nanoseconds(1_234_560), .nanoseconds(100)) == .nanoseconds(1_234_600))
  }

  @Test func aPreemptedSleepOfARoundDurationStillReadsExactly() {
    // 40 ms of preemption between the read and Marbles seeing the deadline.
    #expect(reading(.milliseconds(260), .milliseconds(45)) == .milliseconds(300))
    #expect(reading(.nanoseconds(1_599_000_000), .milliseconds(200)) == .milliseconds(1_600))
    #expect(reading(.seconds(3_599), .seconds(2)) == .seconds(3_600))
  }

  @Test func amongEquallyRoundValuesTheSmallestWins() {
    // 333, 334 and 335 ms are all in the window: the read most likely came last.
    #expect(reading(.nanoseconds(332_990_000), .milliseconds(2)) == .milliseconds(333))
  }

  @Test func aDeadlineNowOrPastIsZero() {
    #expect(reading(.zero, .zero) == .zero)
    #expect(reading(.milliseconds(-5), .milliseconds(1)) == .zero)
    #expect(reading(.microseconds(-3), .microseconds(10)) == .zero, "zero is in the window")
  }

  @Test func hugeDurationsDoNotOverflow() {
    #expect(reading(.seconds(Int64.max / 2), .seconds(1)) > .seconds(3_000_000_000))
  }
}
