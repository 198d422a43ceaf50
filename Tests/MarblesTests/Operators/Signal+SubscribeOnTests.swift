import MarbleTesting
import Marbles
import Signals
import Testing

/// `subscribe(on:)` on virtual time.
@Suite struct SignalSubscribeOnTests {
  @Test func subscribesInAScheduledActionAndPassesEventsThrough() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|")
    let signal = source.subscribe(on: scheduler)
    _ = signal.subscribe(next: { _ in })
    #expect(source.subscriptions.isEmpty, "nothing is subscribed before the scheduler runs")
    scheduler.run()
    #expect(source.subscriptions == [Subscription(0, 4)])

    let subscriber = scheduler.record(signal, subscribeAt: 6)
    scheduler.run()
    assertMarbles(subscriber, "-------a-b|")
  }

  @Test func anErrorPassesThrough() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a#")
    let subscriber = scheduler.record(source.subscribe(on: scheduler), subscribeAt: 1)
    scheduler.run()
    assertMarbles(subscriber, "--a#")
    assertSubscriptions(source, "-^-!")
  }

  @Test func disposingBeforeTheActionRunsCancelsTheSubscription() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|")
    let subscription = source.subscribe(on: scheduler).subscribe(next: { _ in })
    #expect(scheduler.hasScheduledWork, "the subscription waits for the scheduler")
    subscription.dispose()
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the scheduled subscription")
    scheduler.run()
    assertSubscriptions(source)
  }

  @Test func disposingAfterwardsDisposesTheSourceSubscription() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|")
    let subscriber = scheduler.record(source.subscribe(on: scheduler), disposeAt: 2)
    scheduler.advance(to: 2)
    #expect(!scheduler.hasScheduledWork, "the source's pending events were cancelled")
    assertMarbles(subscriber, "-a")
    assertSubscriptions(source, "^-!")
  }

  @Test func theSubscriptionHappensLaterInTheSameTick() throws {
    // `record` subscribes at 2; the subject sends at 2 from an action queued after that one but
    // before the scheduled subscription, so only the plain subscriber sees a.
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let direct = scheduler.record(subject, subscribeAt: 2)
    let deferred = scheduler.record(subject.subscribe(on: scheduler), subscribeAt: 2)
    scheduler.schedule(at: 2) { subject.sendNext("a") }
    scheduler.schedule(at: 3) { subject.sendNext("b") }
    scheduler.run()
    assertMarbles(direct, "--ab")
    assertMarbles(deferred, "---b")
  }
}
