import MarbleTesting
import Marbles
import MarblesOpenCombine
import OpenCombine
import Testing

/// Every `assertTable`, `expect` and `record` spelling that signals have, with a publisher, from a
/// test target that imports only what a Linux user imports (this module depends on the
/// `MarblesOpenCombine` package, Marbles and OpenCombine, nothing else).
@Suite struct PublisherOverloadsTests {
  struct Offline: Error, Equatable {}

  // MARK: assertTable

  /// No `values:`, no `error:`: the values are the characters, `#` is a `TestError` (Combine's
  /// `delay` delays the failure too).
  @Test func aTableOfCharactersWhoseFailureIsTestError() {
    assertTable(
      """
      src  hot   -a-b-#
      out  gets  ---a-b-#
      """
    ) { $0["src"].publisher.delay(for: 0.002, scheduler: $0.scheduler.combine) }
  }

  @Test func aTableOfCharactersThatCannotFail() {
    assertTable(
      """
      src  hot   -a-b-|
      out  gets  --a-b-|
      """
    ) { (sources: TableSources<String, Never>) in
      sources["src"].publisher.delay(for: 0.001, scheduler: sources.scheduler.combine)
    }
  }

  @Test func aTableWithValues() {
    assertTable(
      """
      src  hot   -a-b-|
      out  gets  -x-y-|
      """, values: ["a": 1, "b": 2, "x": 10, "y": 20]
    ) { (sources: TableSources<Int, Never>) in
      sources["src"].publisher.map { $0 * 10 }
    }
  }

  @Test func aTableWithValuesAndAnError() {
    assertTable(
      """
      src  hot   -a-#
      out  gets  -x-#
      """, values: ["a": 1, "x": 10], error: Offline()
    ) { $0["src"].publisher.map { $0 * 10 } }
  }

  @Test func aTableWhosePublisherThrowsAnyError() {
    assertTable(
      """
      src  hot   -a-b-|
      out  gets  -x-#
      """, values: ["a": 1, "b": 2, "x": 10]
    ) { sources in
      sources["src"].publisher.tryMap { value -> Int in
        guard value == 1 else { throw TestError() }
        return value * 10
      }
    }
  }

  @Test func aTableOfCharactersWhosePublisherThrowsAnyError() {
    assertTable(
      """
      src  hot   -a-b-|
      out  gets  -A-#
      """
    ) { sources in
      sources["src"].publisher.tryMap { value -> String in
        guard value == "a" else { throw TestError() }
        return value.uppercased()
      }
    }
  }

  // MARK: expect and record

  @Test func expectAndRecordWithEveryToBe() throws {
    let scheduler = TestScheduler()
    let letters = try scheduler.hot("-a-b-|")
    scheduler.expect(letters.publisher.map { $0.uppercased() }).toBe("-A-B-|")
    let numbers: TestSignal<Int, Never> = try scheduler.hot("-1-2|", values: ["1": 1, "2": 2])
    scheduler.expect(numbers.publisher.map { $0 * 2 }).toBe("-x-y|", values: ["x": 2, "y": 4])
    let failing = try scheduler.hot("-a-#", values: ["a": 1], error: Offline())
    scheduler.expect(failing.publisher).toBe("-a-#", values: ["a": 1], error: Offline())
    scheduler.expect(letters.publisher.tryMap { $0 }, subscription: "--^").toBe("---b-|")
    let recorded = scheduler.record(letters.publisher, subscribeAt: 2)
    scheduler.flush()
    assertMarbles(recorded, "---b-|")
  }

  @Test func aPublisherRecorderStepByStep() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-ab------|")
    let results = scheduler.record(
      source.publisher.debounce(for: 0.003, scheduler: scheduler.combine))
    #expect(results.nextValue() == "b")
    #expect(scheduler.now == 5)
    results.expectCompletion()
    #expect(scheduler.now == 9)
  }
}
