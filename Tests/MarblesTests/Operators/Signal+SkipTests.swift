import MarbleTesting
import Marbles
import Signals
import Testing

/// `skip(_:)` on virtual time.
@Suite struct SignalSkipTests {
  @Test func dropsTheFirstValuesThenPassesTheRest() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-d-|")
    let subscriber = scheduler.record(source.skip(2))
    scheduler.run()
    assertMarbles(subscriber, "-----c-d-|")
    assertSubscriptions(source, "^--------!")
  }

  @Test func anErrorPassesThroughWhileValuesAreStillSkipped() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a#")
    let subscriber = scheduler.record(source.skip(2))
    scheduler.run()
    assertMarbles(subscriber, "--#")
    assertSubscriptions(source, "^-!")
  }

  @Test func disposingMidFlightDisposesTheSourceAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-d-|")
    let subscriber = scheduler.record(source.skip(1), disposeAt: 5)
    scheduler.advance(to: 5)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the source's remaining events")
    assertMarbles(subscriber, "---b-")
    assertSubscriptions(source, "^----!")
  }

  @Test func skippingMoreThanTheSourceSendsOnlyCompletes() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|")
    let subscriber = scheduler.record(source.skip(5))
    scheduler.run()
    assertMarbles(subscriber, "----|")
  }

  @Test func skipZeroPassesEverythingAndEachSubscriptionCountsOnItsOwn() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("a-b|")
    let none = scheduler.record(source.skip(0))
    let first = scheduler.record(source.skip(1))
    let second = scheduler.record(source.skip(1), subscribeAt: 1)
    scheduler.run()
    assertMarbles(none, "a-b|")
    assertMarbles(first, "--b|")
    assertMarbles(second, "---b|")
  }
}
