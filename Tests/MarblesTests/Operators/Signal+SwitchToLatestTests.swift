import MarbleTesting
import Marbles
import Signals
import Testing

/// `switchToLatest()` on virtual time, with cold inner test signals.
@Suite struct SignalSwitchToLatestTests {
  @Test func sendsTheNewestInnerSignalsValuesAndDisposesTheOneBefore() throws {
    let scheduler = TestScheduler()
    let x = try scheduler.cold("-a---b|")
    let y = try scheduler.cold("--c-d|")
    let outer = try scheduler.cold("-x---y------|", values: ["x": x.asSignal(), "y": y.asSignal()])
    let subscriber = scheduler.record(outer.switchToLatest())
    scheduler.run()
    assertMarbles(subscriber, "--a----c-d--|")
    assertSubscriptions(x, "-^---!")
    assertSubscriptions(y, "-----^----!")
  }

  @Test func theCurrentInnerSignalsErrorFailsTheResult() throws {
    let scheduler = TestScheduler()
    let x = try scheduler.cold("-a---b|")
    let y = try scheduler.cold("--#")
    let outer = try scheduler.cold("-x---y------|", values: ["x": x.asSignal(), "y": y.asSignal()])
    let subscriber = scheduler.record(outer.switchToLatest())
    scheduler.run()
    assertMarbles(subscriber, "--a----#")
    assertSubscriptions(outer, "^------!")
  }

  @Test func disposingMidFlightDisposesOuterAndInnerAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let x = try scheduler.cold("-a---b|")
    let outer = try scheduler.cold("-x---x------|", values: ["x": x.asSignal()])
    let subscriber = scheduler.record(outer.switchToLatest(), disposeAt: 7)
    scheduler.advance(to: 7)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled every pending event")
    scheduler.run()
    assertMarbles(subscriber, "--a---a")
    assertSubscriptions(x, "-^---!", "-----^-!")
    assertSubscriptions(outer, "^------!")
  }

  @Test func anInnerSignalThatSendsAtSubscriptionIsSwitchedToAtOnce() throws {
    let scheduler = TestScheduler()
    let x = try scheduler.cold("a-b--c|")
    let y = try scheduler.cold("(d|)")
    let outer = try scheduler.cold("x---y-|", values: ["x": x.asSignal(), "y": y.asSignal()])
    let subscriber = scheduler.record(outer.switchToLatest())
    scheduler.run()
    assertMarbles(subscriber, "a-b-d-|")
    assertSubscriptions(x, "^---!")
  }
}
