// The async article's debounce listing, whole, with its import of swift-async-algorithms.
// swift-format-ignore: OrderedImports
import MarbleTesting
import Marbles
import Signals
import Testing

// snippet: async-debounce
import AsyncAlgorithms

@Test func debounceWaitsForAQuietPeriod() throws {
  let scheduler = TestScheduler()
  let input = try scheduler.hot("-a--b-c---|")
  scheduler.expect(input.values.debounce(for: .milliseconds(2), clock: scheduler.clock))
    .toBe("---a----c-|")
  scheduler.flush()
}
// snippet-end
