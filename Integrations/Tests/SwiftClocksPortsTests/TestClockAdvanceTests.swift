// swift-clocks 1.1.1's `testAdvance` (Tests/ClocksTests/TestClocksTests.swift), whole, as the
// porting article shows it; the rest of the suite is TestClockTests.swift.
// swift-format-ignore: OrderedImports
import MarbleTesting
import Testing

// snippet: porting-swift-clocks
import ConcurrencyExtras

@Suite struct TestClockAdvanceTests {
  // `let clock = TestClock()`
  let scheduler = TestScheduler()
  var clock: TestClock { scheduler.clock }

  /// Their `tearDown`: `try await self.clock.checkSuspension()` after the test.
  func checkSuspension() -> Bool {
    scheduler.advance(by: 0)
    return !scheduler.hasScheduledWork
  }

  /// `testAdvance`
  @Test func advance() async {
    let isFinished = ActorIsolated(false)
    Task {
      try await self.clock.sleep(until: self.clock.now.advanced(by: .seconds(1)))
      await isFinished.setValue(true)
    }

    var checkIsFinished = await isFinished.value
    #expect(checkIsFinished == false)

    scheduler.advance(by: .seconds(1))
    checkIsFinished = await isFinished.value
    #expect(checkIsFinished == true)
    #expect(checkSuspension())
  }
}
// snippet-end
