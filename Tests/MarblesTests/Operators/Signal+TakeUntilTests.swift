import MarbleTesting
import Marbles
import Signals
import Testing

/// `takeUntil(_:)` on virtual time.
@Suite struct SignalTakeUntilTests {
  @Test func aTriggerValueCompletesTheResultAndDisposesBoth() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-d-|")
    let trigger = try scheduler.cold("----x--|")
    let subscriber = scheduler.record(source.takeUntil(trigger))
    scheduler.run()
    assertMarbles(subscriber, "-a-b|")
    assertSubscriptions(source, "^---!")
    assertSubscriptions(trigger, "^---!")
  }

  @Test func aTriggerThatCompletesWithoutAValueAlsoCompletesTheResult() throws {
    // RAC 2.5's rule; RxSwift and RxJS would run on to -a-b-c-d-|.
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-d-|")
    let trigger = try scheduler.cold("---|")
    let subscriber = scheduler.record(source.takeUntil(trigger))
    scheduler.run()
    assertMarbles(subscriber, "-a-|")
    assertSubscriptions(source, "^--!")
  }

  @Test func theTriggersErrorIsIgnoredAndTheSourceRunsOn() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-|")
    let trigger = try scheduler.cold("--#", error: TestError("trigger"))
    let subscriber = scheduler.record(source.takeUntil(trigger))
    scheduler.run()
    assertMarbles(subscriber, "-a-b-|")
    assertSubscriptions(source, "^----!")
    assertSubscriptions(trigger, "^-!")
  }

  @Test func theSourcesErrorPassesAndDisposesTheTrigger() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a#")
    let trigger = try scheduler.cold("-----x")
    let subscriber = scheduler.record(source.takeUntil(trigger))
    scheduler.run()
    assertMarbles(subscriber, "-a#")
    assertSubscriptions(trigger, "^-!")
  }

  @Test func disposingMidFlightDisposesBothAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-|")
    let trigger = try scheduler.cold("------x")
    let subscriber = scheduler.record(source.takeUntil(trigger), disposeAt: 3)
    scheduler.advance(to: 3)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled both signals' remaining events")
    assertMarbles(subscriber, "-a-")
    assertSubscriptions(source, "^--!")
    assertSubscriptions(trigger, "^--!")
  }

  @Test func aTriggerThatFiresAtSubscriptionCompletesWithoutSubscribingToTheSource() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-|")
    let trigger = try scheduler.cold("x", values: ["x": 1])
    let subscriber = scheduler.record(source.takeUntil(trigger))
    scheduler.run()
    assertMarbles(subscriber, "|")
    assertSubscriptions(source)
    assertSubscriptions(trigger, "(^!)")
  }

  @Test func aHotTriggerCountsOnlyWhatItSendsAfterSubscription() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a-b-c-d-|")
    let trigger = try scheduler.hot("-x----y")
    let subscriber = scheduler.record(source.takeUntil(trigger), subscribeAt: 2)
    scheduler.run()
    assertMarbles(subscriber, "---b-c|")
  }
}
