import MarbleTesting
import Marbles
import Signals
import Testing

/// `distinctUntilChanged()` on virtual time.
@Suite struct SignalDistinctUntilChangedTests {
  @Test func dropsConsecutiveRepeatsButLetsAValueReturn() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-a-b-b-a-|")
    let subscriber = scheduler.record(source.distinctUntilChanged())
    scheduler.run()
    assertMarbles(subscriber, "-a---b---a-|")
    assertSubscriptions(source, "^----------!")
  }

  @Test func anErrorPassesThrough() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-a#")
    let subscriber = scheduler.record(source.distinctUntilChanged())
    scheduler.run()
    assertMarbles(subscriber, "-a--#")
    assertSubscriptions(source, "^---!")
  }

  @Test func disposingMidFlightDisposesTheSourceAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-b-c-|")
    let subscriber = scheduler.record(source.distinctUntilChanged(), disposeAt: 6)
    scheduler.advance(to: 6)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the source's remaining events")
    assertMarbles(subscriber, "-a-b--")
    assertSubscriptions(source, "^-----!")
  }

  @Test func repeatsInOneFrameAreDroppedAndEachSubscriptionComparesItsOwnValues() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("(aab)-b-c|")
    let distinct = source.distinctUntilChanged()
    let first = scheduler.record(distinct)
    let second = scheduler.record(distinct, subscribeAt: 3)
    scheduler.run()
    assertMarbles(first, "(ab)----c|")
    assertMarbles(second, "---(ab)----c|")
  }

  @Test func comparesByEqualityNotIdentityOfEquatableValues() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c|", values: ["a": 1, "b": 1, "c": 2])
    let subscriber = scheduler.record(source.distinctUntilChanged())
    scheduler.run()
    assertMarbles(subscriber, "-a---c|", values: ["a": 1, "c": 2])
  }
}
