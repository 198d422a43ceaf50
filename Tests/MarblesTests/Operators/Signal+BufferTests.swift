import MarbleTesting
import Marbles
import Signals
import Testing

/// `buffer(timeSpan:count:on:)` on virtual time.
@Suite struct SignalBufferTests {
  let buffers: [Character: [String]] = [
    "x": ["a", "b"], "y": ["c", "d", "e"], "z": ["f"], "w": ["a", "b", "c"], "v": ["a"],
    "u": ["b"],
  ]

  func run(_ marbles: String, frames: Int = 3, count: Int = 3, disposeAt: Int? = nil) throws -> (
    TestSubscriber<[String], TestError>, TestSignal<String, TestError>, TestScheduler
  ) {
    let scheduler = TestScheduler()
    let source = try scheduler.cold(marbles)
    let subscriber = scheduler.record(
      source.buffer(timeSpan: .milliseconds(frames), count: count, on: scheduler),
      disposeAt: disposeAt)
    return (subscriber, source, scheduler)
  }

  @Test func sendsAWindowWhenItsTimeSpanPassesOrItsCountIsReached() throws {
    let (subscriber, source, scheduler) = try run("-ab-----cde--f|")
    scheduler.run()
    assertMarbles(subscriber, "----x-----y---(z|)", values: buffers)
    assertSubscriptions(source, "^-------------!")
  }

  @Test func aWindowFilledByItsCountCancelsItsTimer() throws {
    let (subscriber, _, scheduler) = try run("-abc", frames: 5)
    scheduler.advance(to: 3)
    #expect(!scheduler.hasScheduledWork, "the full window's timer was cancelled")
    assertMarbles(subscriber, "---w", values: buffers)
  }

  @Test func noValuesMeansNoWindowAndNoEmptyArray() throws {
    let (subscriber, _, scheduler) = try run("-a-------b--|", frames: 2)
    scheduler.run()
    assertMarbles(subscriber, "---v-------u|", values: buffers)
  }

  @Test func anErrorPassesAtOnceAndDropsTheOpenWindow() throws {
    let (subscriber, source, scheduler) = try run("-ab#")
    scheduler.advance(to: 3)
    #expect(!scheduler.hasScheduledWork, "the error cancelled the window's timer")
    assertMarbles(subscriber, "---#", values: buffers)
    assertSubscriptions(source, "^--!")
  }

  @Test func disposingCancelsTheWindowsTimer() throws {
    let (subscriber, source, scheduler) = try run("-ab-----|", disposeAt: 3)
    scheduler.advance(to: 2)
    #expect(scheduler.hasScheduledWork, "the window's timer (at 4) and the disposal (at 3) wait")
    scheduler.advance(to: 3)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the window's timer")
    scheduler.run()
    assertMarbles(subscriber, "---", values: buffers)
    assertSubscriptions(source, "^--!")
  }

  @Test func aValueExactlyAtTheWindowsEdgeJoinsIt() throws {
    // a opens a window at 1, whose timer fires at 4; b arrives at 4, queued before the timer.
    let (subscriber, _, scheduler) = try run("-a--b---|", count: 10)
    scheduler.run()
    assertMarbles(subscriber, "----x---|", values: buffers)
  }

  @Test func aCountOfOneSendsEachValueAtOnce() throws {
    let (subscriber, _, scheduler) = try run("-a-b|", count: 1)
    scheduler.run()
    #expect(!scheduler.hasScheduledWork)
    assertMarbles(subscriber, "-v-u|", values: buffers)
  }
}
