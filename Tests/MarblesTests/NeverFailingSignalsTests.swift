import MarbleTesting
import Marbles
import Signals
import Testing

/// Signals that cannot fail (`Failure == Never`) are first-class: no dummy `error:` anywhere, and a
/// `#` in their marbles is a mistake. A custom failure type needs `error:` only for a `#`.
@Suite struct NeverFailingSignalsTests {
  struct Offline: Error, Equatable {}

  @Test func hotAndColdBuildNeverFailingSignalsFromTheAnnotation() throws {
    let scheduler = TestScheduler()
    let hot: TestSignal<Int, Never> = try scheduler.hot("-1-2|", values: ["1": 1, "2": 2])
    let cold: TestSignal<Int, Never> = try scheduler.cold("-1|", values: ["1": 1])
    let letters: TestSignal<String, Never> = try scheduler.hot("-a-^-b|")
    let coldLetters: TestSignal<String, Never> = try scheduler.cold("a|")
    #expect(hot.events == [.next(1, 1), .next(3, 2), .completed(4)])
    #expect(cold.events == [.next(1, 1), .completed(2)])
    #expect(letters.events == [.next(-2, "a"), .next(2, "b"), .completed(3)])
    #expect(coldLetters.events == [.next(0, "a"), .completed(1)])
  }

  @Test func withoutAnAnnotationTheFailureIsTestError() throws {
    let scheduler = TestScheduler()
    let signal = try scheduler.cold("-a#", values: ["a": 1])
    #expect(signal.events == [.next(1, 1), .error(2, TestError())])
  }

  @Test func aHashInANeverFailingMarbleIsASyntaxError() {
    let scheduler = TestScheduler()
    #expect(
      throws: MarbleSyntaxError(
        message: "'#' is an error, but this signal cannot fail (its Failure is Never)", line: 1,
        column: 4, sourceLine: "-a-#")
    ) {
      let _: TestSignal<String, Never> = try scheduler.hot("-a-#")
    }
    #expect(throws: MarbleSyntaxError.self) {
      let _: TestSignal<Int, Never> = try scheduler.cold("#", values: [:])
    }
  }

  @Test func aCustomFailureNeedsErrorOnlyForAHash() throws {
    let scheduler = TestScheduler()
    let fine: TestSignal<String, Offline> = try scheduler.cold("-a|")
    #expect(fine.events == [.next(1, "a"), .completed(2)])
    #expect(
      throws: MarbleSyntaxError(
        message: "'#' is an error; pass error: to say which Offline it stands for", line: 1,
        column: 3, sourceLine: "-a#")
    ) {
      let _: TestSignal<String, Offline> = try scheduler.cold("-a#")
    }
    let withError = try scheduler.cold("-a#", error: Offline())
    #expect(withError.events == [.next(1, "a"), .error(2, Offline())])
  }

  @Test func recordAndAssertNeedNoError() throws {
    let scheduler = TestScheduler()
    let clicks: TestSignal<Int, Never> = try scheduler.hot("-1-2|", values: ["1": 1, "2": 2])
    let tens = scheduler.record(clicks.map { $0 * 10 })
    let letters = scheduler.record(clicks.map { String($0) })
    scheduler.run()
    assertMarbles(tens, "-x-y|", values: ["x": 10, "y": 20])
    assertMarbles(letters, "-1-2|")
    assertEvents(tens, [.next(1, 10), .next(3, 20), .completed(4)])
    assertSubscriptions(clicks, "^---!", "^---!")
  }

  @Test func aCustomFailureWithoutAHashNeedsNoErrorInAssertions() throws {
    let scheduler = TestScheduler()
    let source: TestSignal<String, Offline> = try scheduler.cold("-a|")
    let recorder = scheduler.record(source)
    scheduler.run()
    assertMarbles(recorder, "-a|")
    withKnownIssue {
      assertMarbles(recorder, "-a#")
    } matching: { issue in
      issue.comments.first?.rawValue
        == """
        marble cannot be read: line 1, column 3: '#' is an error; pass error: to say which \
        Offline it stands for
          -a#
            ^
        """
    }
  }

  @Test func aFailingAssertionOnANeverFailingRecorderShowsTheMarbles() throws {
    let scheduler = TestScheduler()
    let source: TestSignal<String, Never> = try scheduler.cold("-a-b|")
    let recorder = scheduler.record(source)
    scheduler.run()
    withKnownIssue {
      assertMarbles(recorder, "-a--b|")
    } matching: { issue in
      issue.comments.first?.rawValue
        == """
        marbles differ at frame 3
          expected  -a--b|
          actual    -a-b|
                       ^ got unexpected next("b") at frame 3; it was expected at frame 4
        """
    }
  }

  @Test func expectAndFlushNeedNoError() throws {
    let scheduler = TestScheduler()
    let source: TestSignal<String, Never> = try scheduler.hot("--a--b--|")
    scheduler.expect(source.map { $0.uppercased() }).toBe("--A--B--|")
    scheduler.expect(source.map { $0 == "a" ? 1 : 2 }).toBe("--x--y--|", values: ["x": 1, "y": 2])
    scheduler.expect(source, subscription: "---^--!").toBe("-----b-")
    scheduler.expectSubscriptions(source).toBe("^-------!", "^-------!", "---^--!")
    scheduler.flush()
  }

  @Test func tablesTakeNeverFailingSources() {
    assertTable(
      """
      query  hot   -a-b-----c-|
      sub    gets  -------b---(c|)
      """
    ) { (sources: TableSources<String, Never>) in
      sources["query"].debounce(.milliseconds(4), on: sources.scheduler)
    }
  }

  @Test func aHashInANeverFailingTableIsReportedAtItsRowAndColumn() {
    withKnownIssue {
      assertTable(
        """
        query  hot   -a-#
        sub    gets  -a-#
        """
      ) { (sources: TableSources<String, Never>) in sources["query"] }
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix(
        "table cannot be read: line 1, column 17: '#' is an error, but this signal cannot fail")
        == true
    }
  }

  @Test func higherOrderAssertionsNeedNoError() throws {
    let scheduler = TestScheduler()
    let source: TestSignal<String, Never> = try scheduler.cold("-a-b-A-B-|")
    let groups = scheduler.recordHigherOrder(source.groupBy { $0.lowercased() })
    scheduler.expect(source.groupBy { $0.lowercased() })
      .toBe("-x-y-----|", inner: ["x": "a---A---|", "y": "b---B-|"])
    scheduler.flush()
    assertMarbles(groups, "-x-y-----|", inner: ["x": "a---A---|", "y": "b---B-|"])
    withKnownIssue {
      assertMarbles(groups, "-x-y-----|", inner: ["x": "a---A---#", "y": "b---B-|"])
    } matching: { issue in
      issue.comments.first?.rawValue.contains(
        "in the inner marble of `x`: '#' is an error, but this signal cannot fail") == true
    }
  }
}
