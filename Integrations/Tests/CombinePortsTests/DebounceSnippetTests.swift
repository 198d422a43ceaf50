// The Combine article's first listing, whole: its imports are the article's (OpenCombine's here).
// swift-format-ignore: OrderedImports
import MarbleTesting
import Marbles
import Testing

// snippet: combine-debounce
import MarblesOpenCombine
import OpenCombineShim

@Test func debounceOnVirtualTime() throws {
  let scheduler = TestScheduler()
  let input = try scheduler.hot("-a-b---c--|")
  scheduler.expect(input.publisher.debounce(for: .milliseconds(2), scheduler: scheduler.combine))
    .toBe("-----b---c|")
  scheduler.expectSubscriptions(input).toBe("^---------!")
  scheduler.flush()
}
// snippet-end
