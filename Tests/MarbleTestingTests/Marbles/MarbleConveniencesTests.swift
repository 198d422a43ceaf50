import MarbleTesting
import Signals
import Testing

/// `time(_:)`, `values:` keyed by strings, and how failure texts name empty strings and one-frame
/// groups.
@Suite struct MarbleConveniencesTests {
  @Test func timeIsTheFrameOfTheBar() throws {
    let scheduler = TestScheduler()
    #expect(try scheduler.time("---|") == 3)
    #expect(try scheduler.time("  --a--|") == 5, "spaces take no time, values a frame each")
    #expect(try scheduler.time("(ab)-|") == 5, "a group is as long as it is written")
    #expect(try scheduler.time("a 9ms |") == 10)
    #expect(try scheduler.time("|") == 0)
    #expect(try TestScheduler(tick: .milliseconds(10)).time("100ms |") == 10)
  }

  @Test func timeNeedsExactlyOneBar() {
    let scheduler = TestScheduler()
    #expect(
      throws: MarbleSyntaxError(
        message: "time(_:) needs one '|', whose frame it returns; this marble has none", line: 1,
        column: 5, sourceLine: "----")
    ) { try scheduler.time("----") }
    #expect(
      throws: MarbleSyntaxError(
        message: "time(_:) needs exactly one '|', whose frame it returns; this is a second one",
        line: 1, column: 4, sourceLine: "--||")
    ) { try scheduler.time("--||") }
    #expect(throws: MarbleSyntaxError.self) { try scheduler.time("--?|") }
  }

  @Test func valuesKeyedByOneCharacterStrings() throws {
    let scheduler = TestScheduler()
    let values = ["x": 10, "y": 20]  // [String: Int], as a literal on its own line infers
    let hot: TestSignal<Int, TestError> = try scheduler.hot("-x-y|", values: values)
    let cold = try scheduler.cold("x|", values: values)
    #expect(hot.events == [.next(1, 10), .next(3, 20), .completed(4)])
    #expect(cold.events == [.next(0, 10), .completed(1)])
    #expect(try Marble.parse("-y", values: values) == [.next(1, 20)])
    let report = try MarbleTable.parse(
      """
      src  hot  -x-y|
      out  gets -x-y|
      """
    ).run(values: values) { (sources: TableSources<Int, TestError>) in sources["src"] }
    #expect(report.passed)
  }

  @Test func aLongerKeyIsAnErrorThatNamesIt() {
    let scheduler = TestScheduler()
    let values = ["x": 10, "xy": 20]
    #expect(
      throws: MarbleSyntaxError(
        message: "the values: key \"xy\" is 2 characters; a key of values: is the one character "
          + "a marble draws", line: 1, column: 1, sourceLine: "-x|")
    ) { try scheduler.cold("-x|", values: values) }
  }

  @Test func anEmptyStringIsQuotedInALegend() throws {
    let expected = try Marble.parse("-e|", values: ["e": ""])
    let message = FailureMessage.marbles(
      expectedMarble: "-e|", expected: expected, actual: [.next(2, ""), .completed(3)],
      values: ["e": ""])
    #expect(message?.contains(#"where e = """#) == true)
    #expect(message?.contains("e = ,") == false)
  }

  @Test func aOneFrameGroupIsExplainedWhereAFailureFirstShowsIt() throws {
    let expected = try Marble.parse("-a-b|")
    let message = try #require(
      FailureMessage.marbles(
        expectedMarble: "-a-b|", expected: expected,
        actual: [.next(1, "a"), .next(1, "b"), .completed(2)], values: Marble.characterValues))
    #expect(message.contains("actual    -[ab]|"))
    #expect(
      message.contains(
        "([ab] means a and b came in one frame, one after the other; unlike (ab), the group takes "
          + "that one frame only)"))
    let plain = try #require(
      FailureMessage.marbles(
        expectedMarble: "-a-b|", expected: expected, actual: [.next(1, "a"), .completed(2)],
        values: Marble.characterValues))
    #expect(!plain.contains("in one frame"))
  }

  /// Found from outside: a value whose text holds a `[` brought the `[ab]` note to a failure that
  /// printed no one-frame group.
  @Test func aBracketInAValueBringsNoOneFrameGroupNote() throws {
    let values: [Character: String] = ["a": #"loaded(["swift", "swiftui"])"#]
    let expected = try Marble.parse("-a|", values: values)
    let message = try #require(
      FailureMessage.marbles(
        expectedMarble: "-a|", expected: expected,
        actual: [.next(1, #"loaded(["swift"])"#), .completed(2)], values: values))
    #expect(
      message == #"""
        marbles differ at frame 1
          expected  -a|
          actual    -b|
                     ^ expected next("loaded([\"swift\", \"swiftui\"])") at frame 1, got next("loaded([\"swift\"])")
          where a = loaded(["swift", "swiftui"]), b = "loaded([\"swift\"])"
        """#)
  }
}
