import MarbleTesting
import Marbles
import Signals
import Testing

/// `Signal.interval(_:on:)` on virtual time.
@Suite struct SignalIntervalTests {
  /// An interval counting in single-digit strings, so that marbles can show its values.
  func counting(every frames: Int, on scheduler: TestScheduler) -> Signal<String, TestError> {
    Signal<Int, TestError>.interval(.milliseconds(frames), on: scheduler).map { String($0) }
  }

  @Test func sendsACountEveryPeriodStartingOnePeriodAfterSubscription() throws {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(counting(every: 3, on: scheduler), subscribeAt: 2)
    scheduler.advance(to: 15)
    assertMarbles(subscriber, "-----0--1--2--3")
  }

  @Test func eachSubscriptionHasItsOwnCount() throws {
    let scheduler = TestScheduler()
    let interval = counting(every: 2, on: scheduler)
    let first = scheduler.record(interval)
    let second = scheduler.record(interval, subscribeAt: 3)
    scheduler.advance(to: 8)
    assertMarbles(first, "--0-1-2-3")
    assertMarbles(second, "-----0-1-")
  }

  @Test func anErrorEndingThePipelineStopsTheTimer() throws {
    let scheduler = TestScheduler()
    let failing = try scheduler.cold("-----#")
    let subscriber = scheduler.record(counting(every: 3, on: scheduler).merge(failing))
    scheduler.advance(to: 5)
    #expect(!scheduler.hasScheduledWork, "the error disposed the interval's repeating timer")
    scheduler.run()
    assertMarbles(subscriber, "---0-#")
  }

  @Test func disposingStopsTheTimer() throws {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(counting(every: 3, on: scheduler), disposeAt: 7)
    scheduler.advance(to: 6)
    #expect(scheduler.hasScheduledWork)
    scheduler.advance(to: 7)
    #expect(!scheduler.hasScheduledWork, "the disposal stopped the repeating timer")
    scheduler.run()
    assertMarbles(subscriber, "---0--1")
    #expect(scheduler.now == 7)
  }

  @Test func aDisposalAtTheTickAValueIsDueComesFirst() throws {
    // The disposal was scheduled (by `record`, at the start) before the timer's run at 6 was.
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(counting(every: 3, on: scheduler), disposeAt: 6)
    scheduler.run()
    assertMarbles(subscriber, "---0--")
  }

  @Test func takeEndsItAtTheLastValue() throws {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(counting(every: 2, on: scheduler).take(3))
    scheduler.run()
    assertMarbles(subscriber, "--0-1-(2|)")
    #expect(!scheduler.hasScheduledWork)
  }
}
