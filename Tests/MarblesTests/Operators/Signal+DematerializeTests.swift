import MarbleTesting
import Marbles
import Signals
import Testing

/// `dematerialize()` on virtual time.
@Suite struct SignalDematerializeTests {
  typealias Events = [Recorded<Event<Event<String, TestError>, Never>>]

  @Test func sendsTheEventsTheValuesDescribe() throws {
    let scheduler = TestScheduler()
    let events: Events = [.next(1, .next("a")), .next(3, .next("b")), .next(5, .completed)]
    let source = try scheduler.cold(events)
    let subscriber = scheduler.record(source.dematerialize())
    scheduler.run()
    assertMarbles(subscriber, "-a-b-|")
    assertSubscriptions(source, "^----!")
  }

  @Test func anErrorValueFailsTheResultAndDisposesTheSource() throws {
    let scheduler = TestScheduler()
    let events: Events = [
      .next(1, .next("a")), .next(2, .error(TestError())), .next(4, .next("z")), .completed(6),
    ]
    let source = try scheduler.cold(events)
    let subscriber = scheduler.record(source.dematerialize())
    scheduler.run()
    assertMarbles(subscriber, "-a#")
    assertSubscriptions(source, "^-!")
  }

  @Test func disposingMidFlightDisposesTheSourceAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let events: Events = [.next(1, .next("a")), .next(3, .next("b")), .next(5, .completed)]
    let source = try scheduler.cold(events)
    let subscriber = scheduler.record(source.dematerialize(), disposeAt: 2)
    scheduler.advance(to: 2)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the source's remaining events")
    scheduler.run()
    assertMarbles(subscriber, "-a")
    assertSubscriptions(source, "^-!")
  }

  @Test func theSourcesOwnCompletionCompletesTheResult() throws {
    let scheduler = TestScheduler()
    let events: Events = [.next(1, .next("a")), .completed(3)]
    let source = try scheduler.cold(events)
    let subscriber = scheduler.record(source.dematerialize())
    scheduler.run()
    assertMarbles(subscriber, "-a-|")
  }

  @Test func dematerializeUndoesMaterialize() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a(bc)-#")
    let subscriber = scheduler.record(source.materialize().dematerialize())
    scheduler.run()
    assertMarbles(subscriber, "-a(bc)-#")
  }
}
