import MarbleTesting
import Marbles
import Signals
import Testing

/// `materialize()` on virtual time. The result cannot fail, so it is checked with `assertEvents`.
@Suite struct SignalMaterializeTests {
  typealias Events = [Recorded<Event<Event<String, TestError>, Never>>]

  @Test func sendsEachEventAsAValueThenCompletes() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-|")
    let subscriber = scheduler.record(source.materialize())
    scheduler.run()
    let expected: Events = [
      .next(1, .next("a")), .next(3, .next("b")), .next(5, .completed), .completed(5),
    ]
    assertEvents(subscriber, expected)
    assertSubscriptions(source, "^----!")
  }

  @Test func anErrorBecomesAValueAndTheResultCompletes() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a#", error: TestError("boom"))
    let subscriber = scheduler.record(source.materialize())
    scheduler.run()
    let expected: Events = [
      .next(1, .next("a")), .next(2, .error(TestError("boom"))), .completed(2),
    ]
    assertEvents(subscriber, expected)
    assertSubscriptions(source, "^-!")
  }

  @Test func disposingMidFlightDisposesTheSourceAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-|")
    let subscriber = scheduler.record(source.materialize(), disposeAt: 2)
    scheduler.advance(to: 2)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the source's remaining events")
    scheduler.run()
    let expected: Events = [.next(1, .next("a"))]
    assertEvents(subscriber, expected)
    assertSubscriptions(source, "^-!")
  }

  @Test func anEmptySignalMaterializesToItsCompletionAtSubscription() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("|")
    let subscriber = scheduler.record(source.materialize(), subscribeAt: 3)
    scheduler.run()
    let expected: Events = [.next(3, .completed), .completed(3)]
    assertEvents(subscriber, expected)
  }
}
