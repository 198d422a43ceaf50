import MarbleTesting
import Marbles
import Signals
import Testing

/// `timeout(_:on:error:)` on virtual time.
@Suite struct SignalTimeoutTests {
  let timedOut = TestError("timed out")

  func run(_ marbles: String, frames: Int, disposeAt: Int? = nil) throws -> (
    TestSubscriber<String, TestError>, TestSignal<String, TestError>, TestScheduler
  ) {
    let scheduler = TestScheduler()
    let source = try scheduler.cold(marbles)
    let subscriber = scheduler.record(
      source.timeout(.milliseconds(frames), on: scheduler, error: timedOut), disposeAt: disposeAt)
    return (subscriber, source, scheduler)
  }

  @Test func aSourceThatFinishesInTimePassesThroughAndCancelsTheTimer() throws {
    let (subscriber, source, scheduler) = try run("-a-b-|", frames: 6)
    scheduler.advance(to: 5)
    #expect(!scheduler.hasScheduledWork, "the completion cancelled the timer")
    scheduler.run()
    assertMarbles(subscriber, "-a-b-|")
    assertSubscriptions(source, "^----!")
  }

  @Test func valuesDoNotResetTheTimer() throws {
    let (subscriber, source, scheduler) = try run("-a-b-c-d-e|", frames: 6)
    scheduler.run()
    assertMarbles(subscriber, "-a-b-c#", error: timedOut)
    assertSubscriptions(source, "^-----!")
    #expect(scheduler.now == 6, "the source's later events were cancelled with its subscription")
  }

  @Test func aSourceErrorInTimePassesThroughAndCancelsTheTimer() throws {
    let (subscriber, source, scheduler) = try run("-a#", frames: 6)
    scheduler.advance(to: 2)
    #expect(!scheduler.hasScheduledWork, "the error cancelled the timer")
    scheduler.run()
    assertMarbles(subscriber, "-a#")
    assertSubscriptions(source, "^-!")
  }

  @Test func disposingCancelsTheTimer() throws {
    let (subscriber, source, scheduler) = try run("-a-b-|", frames: 6, disposeAt: 3)
    scheduler.advance(to: 2)
    #expect(scheduler.hasScheduledWork)
    scheduler.advance(to: 3)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the timer and the source")
    scheduler.run()
    assertMarbles(subscriber, "-a-")
    assertSubscriptions(source, "^--!")
  }

  @Test func aSourceThatTerminatesExactlyAtTheIntervalIsInTime() throws {
    let (subscriber, _, scheduler) = try run("-a---|", frames: 5)
    scheduler.run()
    assertMarbles(subscriber, "-a---|")
  }

  @Test func aSourceThatTerminatesOneTickLateTimesOut() throws {
    let (subscriber, source, scheduler) = try run("-a----|", frames: 5)
    scheduler.run()
    assertMarbles(subscriber, "-a---#", error: timedOut)
    assertSubscriptions(source, "^----!")
  }

  @Test func theIntervalRunsFromSubscription() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a-b-c-d-|")
    let subscriber = scheduler.record(
      source.timeout(.milliseconds(4), on: scheduler, error: timedOut), subscribeAt: 2)
    scheduler.run()
    assertMarbles(subscriber, "---b-c#", error: timedOut)
    assertSubscriptions(source, "--^---!")
  }
}
