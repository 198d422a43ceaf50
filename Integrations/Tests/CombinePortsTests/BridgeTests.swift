import MarbleTesting
import Marbles
import MarblesOpenCombine
import OpenCombineShim
import Signals
import Testing

@Suite struct BridgeTests {
  @Test func debounceOnVirtualTime() throws {
    let scheduler = TestScheduler()
    let input = try scheduler.hot("-a-b---c--|")
    scheduler.expect(input.publisher.debounce(for: .milliseconds(2), scheduler: scheduler.combine))
      .toBe("-----b---c|")
    scheduler.expectSubscriptions(input).toBe("^---------!")
    scheduler.flush()
  }
}
