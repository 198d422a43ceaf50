import MarbleTesting
import Marbles
import Signals
import Testing

/// `deliver(on:)` on virtual time.
@Suite struct SignalDeliverOnTests {
  @Test func deliversEachEventInAScheduledActionInOrder() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let subscriber = TestSubscriber<String, TestError>(scheduler)
    subject.deliver(on: scheduler).subscribe(subscriber)
    subject.sendNext("a")
    subject.sendNext("b")
    subject.sendCompleted()
    #expect(subscriber.events.isEmpty, "nothing is delivered before the scheduler runs")
    #expect(scheduler.pendingActionCount == 1, "one delivery action at a time")
    scheduler.advance(by: 0)
    assertMarbles(subscriber, "(ab|)")
  }

  @Test func framesDoNotMoveOnATestScheduler() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-(bc)--d|")
    let subscriber = scheduler.record(source.deliver(on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "-a-(bc)--d|")
    assertSubscriptions(source, "^---------!")
  }

  @Test func anErrorIsDeliveredAfterTheValuesBeforeIt() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-(bc#)")
    let subscriber = scheduler.record(source.deliver(on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "-a-(bc#)")
    assertSubscriptions(source, "^--!")
  }

  @Test func disposingCancelsThePendingDeliveryAndDropsTheQueue() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let subscriber = TestSubscriber<String, TestError>(scheduler)
    subject.deliver(on: scheduler).subscribe(subscriber)
    subject.sendNext("a")
    subject.sendNext("b")
    #expect(scheduler.hasScheduledWork, "a's delivery waits")
    subscriber.dispose()
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the pending delivery")
    scheduler.run()
    #expect(subscriber.events.isEmpty)
  }

  @Test func aDisposalQueuedInTheSameTickBeforeTheDeliveryWins() throws {
    // The hot source sends b at 3 (queued when it was made); b's delivery action is queued then,
    // after the disposal `record` queued for 3 — so b is never delivered.
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a-b")
    let subscriber = scheduler.record(source.deliver(on: scheduler), disposeAt: 3)
    scheduler.advance(to: 3)
    #expect(!scheduler.hasScheduledWork, "b's delivery was cancelled")
    assertMarbles(subscriber, "-a-")
    assertSubscriptions(source, "^--!")
  }
}
