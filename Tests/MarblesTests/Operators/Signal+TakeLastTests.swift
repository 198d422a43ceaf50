import MarbleTesting
import Marbles
import Signals
import Testing

/// `takeLast(_:)` on virtual time.
@Suite struct SignalTakeLastTests {
  @Test func sendsTheLastValuesAtCompletion() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-d-|")
    let subscriber = scheduler.record(source.takeLast(2))
    scheduler.run()
    assertMarbles(subscriber, "---------(cd|)")
    assertSubscriptions(source, "^--------!")
  }

  @Test func anErrorPassesAtOnceAndDropsTheKeptValues() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-#")
    let subscriber = scheduler.record(source.takeLast(2))
    scheduler.run()
    assertMarbles(subscriber, "-----#")
    assertSubscriptions(source, "^----!")
  }

  @Test func disposingMidFlightSendsNothingAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-|")
    let subscriber = scheduler.record(source.takeLast(2), disposeAt: 4)
    scheduler.advance(to: 4)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the source's remaining events")
    scheduler.run()
    assertMarbles(subscriber, "-")
    assertSubscriptions(source, "^---!")
  }

  @Test func fewerValuesThanTheCountAreAllSent() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|")
    let subscriber = scheduler.record(source.takeLast(5))
    scheduler.run()
    assertMarbles(subscriber, "----(ab|)")
  }

  @Test func takeLastZeroSendsOnlyTheCompletion() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|")
    let subscriber = scheduler.record(source.takeLast(0))
    scheduler.run()
    assertMarbles(subscriber, "----|")
  }

  @Test func theRingKeepsTheOrderAfterWrappingAround() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("abcdefg|")
    let subscriber = scheduler.record(source.takeLast(3))
    scheduler.run()
    assertMarbles(subscriber, "-------(efg|)")
  }

  @Test func aNegativeCountSendsOnlyTheCompletion() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-|")
    let subscriber = scheduler.record(source.takeLast(-3))
    scheduler.run()
    assertMarbles(subscriber, "-----|")
  }
}
