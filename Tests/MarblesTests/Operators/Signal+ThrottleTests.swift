import MarbleTesting
import Marbles
import Signals
import Testing

/// `throttle(_:latest:on:)` on virtual time.
@Suite struct SignalThrottleTests {
  func run(_ marbles: String, latest: Bool, frames: Int = 3) throws -> (
    TestSubscriber<String, TestError>, TestSignal<String, TestError>
  ) {
    let scheduler = TestScheduler()
    let source = try scheduler.cold(marbles)
    let subscriber = scheduler.record(
      source.throttle(.milliseconds(frames), latest: latest, on: scheduler))
    scheduler.run()
    return (subscriber, source)
  }

  @Test func withoutLatestValuesInsideTheWindowAreDropped() throws {
    let (subscriber, source) = try run("-abc---d-e|", latest: false)
    assertMarbles(subscriber, "-a-----d--|")
    assertSubscriptions(source, "^---------!")
  }

  @Test func withLatestTheLastValueInTheWindowIsSentWhenItCloses() throws {
    let (subscriber, _) = try run("-abc---d-e|", latest: true)
    assertMarbles(subscriber, "-a--c--d--(e|)")
  }

  @Test func aTrailingValueOpensTheNextWindow() throws {
    // c is sent at 4 as a's window closes; d at 5 is inside c's window (4 ..< 7) and waits for it.
    let (subscriber, _) = try run("-abc-d------|", latest: true)
    assertMarbles(subscriber, "-a--c--d----|")
  }

  @Test func aValueAfterAnEmptyWindowPassesAtOnce() throws {
    let (subscriber, _) = try run("-a------b|", latest: true)
    assertMarbles(subscriber, "-a------b|")
  }

  @Test func anErrorPassesAtOnceAndDropsTheTrailingValue() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-ab#")
    let subscriber = scheduler.record(
      source.throttle(.milliseconds(3), latest: true, on: scheduler))
    scheduler.advance(to: 3)
    #expect(!scheduler.hasScheduledWork, "the error cancelled the window's timer")
    scheduler.run()
    assertMarbles(subscriber, "-a-#")
    assertSubscriptions(source, "^--!")
  }

  @Test func disposingCancelsTheWindowsTimer() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-ab-----|")
    let subscriber = scheduler.record(
      source.throttle(.milliseconds(3), latest: true, on: scheduler), disposeAt: 3)
    scheduler.advance(to: 2)
    #expect(scheduler.hasScheduledWork, "the window's timer (at 4) and the disposal (at 3) wait")
    scheduler.advance(to: 3)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the window's timer")
    scheduler.run()
    assertMarbles(subscriber, "-a--")  // b, the trailing value, is never sent
    assertSubscriptions(source, "^--!")
  }

  @Test func withoutLatestAValueExactlyAtTheWindowsEdgeIsInsideIt() throws {
    let (subscriber, _) = try run("-a--b--c|", latest: false)
    assertMarbles(subscriber, "-a-----c|")
  }

  @Test func withLatestAValueExactlyAtTheWindowsEdgeIsSentAsItCloses() throws {
    let (subscriber, _) = try run("-a--b--c|", latest: true)
    assertMarbles(subscriber, "-a--b--c|")
  }

  @Test func aValueOneTickAfterTheWindowPassesAtOnce() throws {
    let (subscriber, _) = try run("-a---b|", latest: false)
    assertMarbles(subscriber, "-a---b|")
  }
}
