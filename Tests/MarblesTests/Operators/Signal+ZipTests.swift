import MarbleTesting
import Marbles
import Signals
import Testing

/// `zip(_:)` on virtual time. Pairs are recorded as two-character strings ("a1").
@Suite struct SignalZipTests {
  let pairs: [Character: String] = ["x": "a1", "y": "b2", "z": "c3"]

  func zipped(
    _ source: TestSignal<String, TestError>, _ other: TestSignal<String, TestError>
  ) -> Signal<String, TestError> {
    source.zip(other).map { $0 + $1 }
  }

  @Test func pairsTheValuesInOrder() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-|")
    let other = try scheduler.cold("---1---2-3|")
    let subscriber = scheduler.record(zipped(source, other))
    scheduler.run()
    assertMarbles(subscriber, "---x---y-(z|)", values: pairs)
    assertSubscriptions(source, "^------!")
    assertSubscriptions(other, "^--------!")
  }

  @Test func completesOnceACompletedSidesQueueIsExhausted() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a|")
    let other = try scheduler.cold("---1-2-3|")
    let subscriber = scheduler.record(zipped(source, other))
    scheduler.run()
    assertMarbles(subscriber, "---(x|)", values: pairs)
    assertSubscriptions(other, "^--!")
  }

  @Test func aCompletedSideWithNothingQueuedEndsItEvenIfTheOtherHasValuesWaiting() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("abc|")
    let other = try scheduler.cold("----1-2|")
    let subscriber = scheduler.record(zipped(source, other))
    scheduler.run()
    assertMarbles(subscriber, "----x-y|", values: pairs)
  }

  @Test func theOthersErrorFailsTheResultAndDisposesTheSource() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b|")
    let other = try scheduler.cold("--#")
    let subscriber = scheduler.record(zipped(source, other))
    scheduler.run()
    assertMarbles(subscriber, "--#", values: pairs)
    assertSubscriptions(source, "^-!")
  }

  @Test func theSourcesErrorFailsTheResultEvenWithPairsPending() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("ab#")
    let other = try scheduler.cold("-1---2|")
    let subscriber = scheduler.record(zipped(source, other))
    scheduler.run()
    assertMarbles(subscriber, "-x#", values: pairs)
    assertSubscriptions(other, "^-!")
  }

  @Test func disposingMidFlightDisposesBothAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-|")
    let other = try scheduler.cold("---1---2-3|")
    let subscriber = scheduler.record(zipped(source, other), disposeAt: 5)
    scheduler.advance(to: 5)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled both signals' remaining events")
    scheduler.run()
    assertMarbles(subscriber, "---x-", values: pairs)
    assertSubscriptions(source, "^----!")
    assertSubscriptions(other, "^----!")
  }
}
