import MarbleTesting
import Marbles
import Signals
import Testing

/// `scan(_:_:)` on virtual time.
@Suite struct SignalScanTests {
  let numbers: [Character: Int] = ["a": 1, "b": 2, "c": 3, "x": 1, "y": 3, "z": 6]

  @Test func sendsEachRunningAccumulationButNotTheInitialValue() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-|", values: numbers)
    let subscriber = scheduler.record(source.scan(0, +))
    scheduler.run()
    assertMarbles(subscriber, "-x-y-z-|", values: numbers)
    assertSubscriptions(source, "^------!")
  }

  @Test func anErrorPassesThroughAfterTheAccumulationsSoFar() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b#", values: numbers)
    let subscriber = scheduler.record(source.scan(0, +))
    scheduler.run()
    assertMarbles(subscriber, "-x-y#", values: numbers)
    assertSubscriptions(source, "^---!")
  }

  @Test func disposingMidFlightDisposesTheSourceAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-|", values: numbers)
    let subscriber = scheduler.record(source.scan(0, +), disposeAt: 4)
    scheduler.advance(to: 4)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the source's remaining events")
    assertMarbles(subscriber, "-x-y", values: numbers)
    assertSubscriptions(source, "^---!")
  }

  @Test func eachSubscriptionStartsAgainFromTheInitialValue() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|", values: numbers)
    let scanned = source.scan(0, +)
    let first = scheduler.record(scanned)
    let second = scheduler.record(scanned, subscribeAt: 2)
    scheduler.run()
    assertMarbles(first, "-x-y|", values: numbers)
    assertMarbles(second, "---x-y|", values: numbers)
  }

  @Test func theAccumulationMayChangeType() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c|")
    let subscriber = scheduler.record(source.scan("") { $0 + $1 })
    scheduler.run()
    assertMarbles(
      subscriber, "-a-b-c|", values: ["a": "a", "b": "ab", "c": "abc"])
  }
}
