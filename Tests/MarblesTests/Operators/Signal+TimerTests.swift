import MarbleTesting
import Marbles
import Signals
import Testing

/// `Signal.timer(after:on:)` on virtual time.
@Suite struct SignalTimerTests {
  func timer(after delay: Duration, on scheduler: TestScheduler) -> Signal<String, TestError> {
    Signal<Int, TestError>.timer(after: delay, on: scheduler).map { String($0) }
  }

  @Test func sendsZeroThenCompletesOnceTheDelayHasPassed() throws {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(timer(after: .milliseconds(3), on: scheduler), subscribeAt: 1)
    scheduler.run()
    assertMarbles(subscriber, "----(0|)")
  }

  @Test func anErrorEndingThePipelineCancelsTheTimer() throws {
    let scheduler = TestScheduler()
    let failing = try scheduler.cold("--#")
    let subscriber = scheduler.record(
      timer(after: .milliseconds(5), on: scheduler).merge(failing))
    scheduler.advance(to: 2)
    #expect(!scheduler.hasScheduledWork, "the error disposed the pending timer")
    scheduler.run()
    assertMarbles(subscriber, "--#")
  }

  @Test func disposingCancelsTheTimer() throws {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(
      timer(after: .milliseconds(5), on: scheduler), disposeAt: 4)
    scheduler.advance(to: 3)
    #expect(scheduler.hasScheduledWork)
    scheduler.advance(to: 4)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the timer")
    scheduler.run()
    assertMarbles(subscriber, "----")
    #expect(scheduler.now == 4)
  }

  @Test func aZeroDelayFiresAtTheSubscriptionTick() throws {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(timer(after: .zero, on: scheduler), subscribeAt: 2)
    scheduler.run()
    assertMarbles(subscriber, "--(0|)")
  }

  @Test func aDelayThatIsNotAWholeNumberOfTicksRoundsUp() throws {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(timer(after: .microseconds(2500), on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "---(0|)")
  }

  @Test func aDisposalAtTheTickTheTimerIsDueComesFirst() throws {
    // `record` scheduled the disposal before the subscription scheduled the timer.
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(
      timer(after: .milliseconds(3), on: scheduler), disposeAt: 3)
    scheduler.run()
    assertMarbles(subscriber, "---")
  }
}
