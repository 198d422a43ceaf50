import MarbleTesting
import Signals
import Testing

/// How a table run draws what happened: with the keys of `values:`, and spare letters named in a
/// legend for values no key names.
@Suite struct TableRunDrawingTests {
  @Test func aValueWithAKeyIsDrawnAsTheKeyAndAnyOtherUnderASpareLetter() throws {
    let table = try MarbleTable.parse(
      """
      src   cold  -a-b-c|
      sub1  gets  -x-y-x|
      """)
    let values = Marble.characterValues.merging(["x": "aa", "y": "bb"]) { $1 }
    let report = try table.run(values: values, error: TestError()) { sources in
      sources["src"].map { $0 + $0 }
    }
    #expect(
      report.text == """
        src   cold  -a-b-c|
        sub1  gets  -x-y-x|
               was  -x-y-α|  where α = "cc"
                         ^

        sub1 got `cc` at frame 5 instead of `x`
        """)
    #expect(
      report.actual == """
        src   cold  -a-b-c|
        sub1  gets  -x-y-α|  where α = "cc"
        """)
  }

  @Test func aSpareLetterIsNeverAKeyOfValues() throws {
    let table = try MarbleTable.parse(
      """
      src   cold  -a|
      sub1  gets  -x|
      """)
    let report = try table.run(values: ["a": 1, "x": 2], error: TestError()) { sources in
      sources["src"].map { $0 * 3 }
    }
    #expect(report.actual.hasSuffix("sub1  gets  -b|  where b = 3"))
  }

  /// The `[ab]` note is for a one-frame group the printer drew, not for a `[` in a value's text
  /// (found from outside: `loaded(["swift", "swiftui"])` brought the note to every failure).
  @Test func aBracketInAValueBringsNoOneFrameGroupNote() throws {
    let table = try MarbleTable.parse(
      """
      src   cold  -a|
      sub1  gets  -x|
      """)
    let report = try table.run(values: ["a": "[1]", "x": "[2]"], error: TestError()) { sources in
      sources["src"].map { "[\($0)]" }
    }
    #expect(
      report.text == """
        src   cold  -a|
        sub1  gets  -x|
               was  -b|  where b = "[[1]]"
                     ^

        sub1 got `[[1]]` at frame 1 instead of `x`
        """)
  }

  @Test func aOneFrameGroupInATableBringsTheNote() throws {
    let table = try MarbleTable.parse(
      """
      one   cold  -a|
      two   cold  -b--|
      sub1  gets  -a-b|
      """)
    let report = try table.run(values: Marble.characterValues, error: TestError()) { sources in
      sources["one"].merge(sources["two"])
    }
    #expect(report.text.contains("was  -[ab]--|"))
    #expect(report.text.contains("([ab] means a and b came in one frame"))
  }
}
