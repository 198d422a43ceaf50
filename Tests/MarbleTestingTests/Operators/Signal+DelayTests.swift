import MarbleTesting
import Signals
import Testing

/// `delay(_:on:)` on virtual time.
@Suite struct SignalDelayTests {
  func run(
    _ marbles: String, delay frames: Int, subscribeAt: Int = 0, disposeAt: Int? = nil
  ) throws -> (TestSubscriber<String, TestError>, TestSignal<String, TestError>, TestScheduler) {
    let scheduler = TestScheduler()
    let source = try scheduler.cold(marbles)
    let subscriber = scheduler.record(
      source.delay(.milliseconds(frames), on: scheduler), subscribeAt: subscribeAt,
      disposeAt: disposeAt)
    scheduler.run()
    return (subscriber, source, scheduler)
  }

  @Test func delaysValuesAndCompletion() throws {
    let (subscriber, source, _) = try run("-a-b-|", delay: 2)
    #expect(subscriber.events == [.next(3, "a"), .next(5, "b"), .completed(7)])
    #expect(source.subscriptions == [Subscription(0, 5)])
  }

  @Test func anErrorPassesAtOnceAndDropsPendingValues() throws {
    let (subscriber, _, _) = try run("-a#", delay: 3)
    #expect(subscriber.events == [.error(2, TestError())])
  }

  @Test func disposingCancelsPendingDeliveries() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|")
    let subscriber = scheduler.record(
      source.delay(.milliseconds(5), on: scheduler), disposeAt: 4)
    scheduler.advance(to: 3)
    #expect(scheduler.hasScheduledWork, "a's delivery (at 6) and the disposal (at 4) wait")
    scheduler.advance(to: 4)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled every pending delivery")
    scheduler.run()
    #expect(subscriber.events.isEmpty)
    #expect(source.subscriptions == [Subscription(0, 4)])
    #expect(scheduler.isIdle)
    #expect(scheduler.now == 4, "cancelled deliveries are skipped: nothing ran after the disposal")
  }

  @Test func aValueExactlyAtTheIntervalEdge() throws {
    // A value at frame 0 delayed by 3 frames arrives at frame 3 — not 2, not 4.
    let (subscriber, _, _) = try run("a|", delay: 3, subscribeAt: 5)
    #expect(subscriber.events == [.next(8, "a"), .completed(9)])
  }

  @Test func aDurationThatIsNotAWholeNumberOfTicksRoundsUp() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("a|")
    let subscriber = scheduler.record(source.delay(.microseconds(1500), on: scheduler))
    scheduler.run()
    #expect(subscriber.events == [.next(2, "a"), .completed(3)])
  }
}
