// combine-schedulers 1.2.2's `testAdvance` (Tests/CombineSchedulersTests/TestSchedulerTests.swift),
// whole, as the porting article shows it; the rest of the suite is CombineSchedulersTests.swift.
// swift-format-ignore: OrderedImports
import MarbleTesting
import Testing

// snippet: porting-combine-schedulers
import Dispatch
import MarblesOpenCombine
import OpenCombineShim

@Suite struct CombineSchedulersAdvanceTests {
  /// `DispatchQueue.test`
  let marbles = TestScheduler()
  var scheduler:
    CombineTestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
  {
    marbles.combine(for: DispatchQueue.self)
  }

  /// `testAdvance`
  @Test func advance() {
    var cancellables: Set<AnyCancellable> = []

    var value: Int?
    Just(1)
      .delay(for: 1, scheduler: scheduler)
      .sink { value = $0 }
      .store(in: &cancellables)

    #expect(value == nil)
    marbles.advance(by: .milliseconds(250))
    #expect(value == nil)
    marbles.advance(by: .milliseconds(250))
    #expect(value == nil)
    marbles.advance(by: .milliseconds(250))
    #expect(value == nil)
    marbles.advance(by: .milliseconds(250))
    #expect(value == 1)
  }
}
// snippet-end
