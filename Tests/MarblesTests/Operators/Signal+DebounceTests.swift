import MarbleTesting
import Marbles
import Signals
import Testing

/// `debounce(_:on:)` on virtual time.
@Suite struct SignalDebounceTests {
  @Test func sendsAValueOnceTheSourceHasBeenQuietForTheInterval() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-bc----d|")
    let subscriber = scheduler.record(source.debounce(.milliseconds(3), on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "-------c--(d|)")
    assertSubscriptions(source, "^---------!")
  }

  @Test func completionFlushesThePendingValueFirst() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a|")
    let subscriber = scheduler.record(source.debounce(.milliseconds(5), on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "--(a|)")
    #expect(scheduler.now == 2, "the flushed value's timer was cancelled, not run")
  }

  @Test func anErrorPassesAtOnceAndDropsThePendingValue() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b#")
    let subscriber = scheduler.record(source.debounce(.milliseconds(3), on: scheduler))
    scheduler.advance(to: 4)
    #expect(!scheduler.hasScheduledWork, "the error cancelled b's timer")
    scheduler.run()
    assertMarbles(subscriber, "----#")
    assertSubscriptions(source, "^---!")
  }

  @Test func disposingCancelsThePendingTimer() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b----|")
    let subscriber = scheduler.record(
      source.debounce(.milliseconds(3), on: scheduler), disposeAt: 5)
    scheduler.advance(to: 4)
    #expect(scheduler.hasScheduledWork, "b's timer (at 6) and the disposal (at 5) wait")
    scheduler.advance(to: 5)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled b's timer")
    scheduler.run()
    assertMarbles(subscriber, "------")
    assertSubscriptions(source, "^----!")
  }

  @Test func aValueExactlyAtTheIntervalEdgeReplacesThePendingOne() throws {
    // a at 1 would be sent at 4, but b arrives at 4, queued (at subscription) before a's timer: the
    // interval did not pass with no newer value.
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a--b---c|")
    let subscriber = scheduler.record(source.debounce(.milliseconds(3), on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "-------b-(c|)")
  }

  @Test func atTheEdgeATimerQueuedBeforeTheNewerValueSendsFirst() throws {
    // The same tie, the other way round: b is sent from an action scheduled after a's timer.
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let subscriber = scheduler.record(subject.debounce(.milliseconds(3), on: scheduler))
    scheduler.schedule(at: 1) {
      subject.sendNext("a")
      scheduler.schedule(at: 4) { subject.sendNext("b") }
    }
    scheduler.run()
    assertMarbles(subscriber, "----a--b")
  }

  @Test func aColdSourcesFrameZeroValueIsSentAtTheEdge() throws {
    // a is sent inside `subscribe`, so its timer is queued before b's event at 3.
    let scheduler = TestScheduler()
    let source = try scheduler.cold("a--b|")
    let subscriber = scheduler.record(source.debounce(.milliseconds(3), on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "---a(b|)")
  }

  @Test func aValueOneTickBeforeTheEdgeIsSent() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("a---b|")
    let subscriber = scheduler.record(source.debounce(.milliseconds(3), on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "---a-(b|)")
  }

  @Test func aHotSourceIsDebouncedFromItsOwnTicks() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a--^-b-c---d-|")
    let subscriber = scheduler.record(source.debounce(.milliseconds(2), on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "------c---(d|)")
  }
}
