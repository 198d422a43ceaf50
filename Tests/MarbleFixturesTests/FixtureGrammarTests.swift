import MarbleFixtures
import MarbleTesting
import Testing

@Suite struct FixtureGrammarTests {
  func firstScenario(_ text: String) throws -> Scenario {
    try #require(try Fixtures.parse(text, path: "t.marbles").scenarios.first)
  }

  @Test func readsHeadersValuesAndRows() throws {
    let file = try Fixtures.parse(
      """
      // a comment
      title: one
      frame: 100ms
      values: a = package 1, b = package 2
      pipeline: src | replay

      src   cold  -a-b|
      sub1  gets  -a-b|

      title: two
      pipeline: src
      src   cold  -a|
      sub1  gets  -a|
      """, path: "t.marbles")
    #expect(file.scenarios.map(\.title) == ["one", "two"])
    let first = try #require(file.scenarios.first)
    #expect(first.frame == .milliseconds(100))
    #expect(first.values == ["a": "package 1", "b": "package 2"])
    #expect(first.line == 2)
    #expect(first.table.rows.map(\.line) == [7, 8])
    #expect(try Fixtures.run(first).passed)
  }

  @Test func aFailingScenarioPrintsTheTableDiff() throws {
    let scenario = try firstScenario(
      """
      title: wrong on purpose
      pipeline: src
      src   cold  -a|
      sub1  gets  --a|
      """)
    let result = try Fixtures.run(scenario)
    #expect(!result.passed)
    #expect(
      result.text == """
        src   cold  -a|
        sub1  gets  --a|
               was  -a|
                     ^

        sub1 got unexpected `a` at frame 1 (expected at frame 2)
        """)
  }

  @Test func showPrintsWhatHappened() throws {
    let scenario = try firstScenario(
      """
      title: show
      pipeline: src | replayLazily
      src   cold  -a|
      sub1  sub   --^---
      sub2  sub   -----^
      src   subs  ^
      """)
    #expect(
      try Fixtures.show(scenario) == """
        src   cold  -a|
        sub1  sub   --^---
        sub1  gets  ---a|
        sub2  sub   -----^
        sub2  gets  -----(a|)
        src   subs  --^-!
        """)
  }

  @Test func anUnknownStepNamesTheNearestOneWithFileLineAndColumn() {
    #expect {
      try Fixtures.run(
        try firstScenario(
          """
          title: typo
          pipeline: src | replayLazly
          src   cold  -a|
          """))
    } throws: { error in
      let text = "\(error)"
      return text.hasPrefix(
        "t.marbles:2:17: unknown step 'replayLazly'; did you mean 'replayLazily'?")
        && text.hasSuffix("\n  pipeline: src | replayLazly\n                  ^")
    }
  }

  @Test func mistakesArePositioned() {
    func error(_ text: String) -> String {
      do {
        let file = try Fixtures.parse(text, path: "f.marbles")
        for scenario in file.scenarios { _ = try Fixtures.run(scenario) }
        return "no error"
      } catch {
        return "\(error)".split(separator: "\n").first.map(String.init) ?? ""
      }
    }
    #expect(
      error("pipeline: src")
        == "f.marbles:1:1: 'pipeline:' comes before any 'title:'; a scenario starts with its title")
    #expect(
      error("title: t\nsrc cold -a|") == "f.marbles:1:1: the scenario 't' has no 'pipeline:' line")
    #expect(
      error("title: t\nframe: fast\npipeline: s\ns cold -a|")
        == "f.marbles:2:8: 'fast' is not a frame length; write it like 100ms, 1s, 1.5s or 2m")
    #expect(
      error("title: t\npipeline: nope\ns  cold  -a|")
        == "f.marbles:2:11: the pipeline starts from 'nope', but the table's sources are s")
    #expect(
      error("title: t\npipeline: s | take(x)\ns  cold  -a|")
        == "f.marbles:2:15: 'take' needs a count of zero or more: take(N)")
    #expect(
      error("title: t\npipeline: s\ns  cold  -a-(b|") == "f.marbles:3:13: '(' is never closed")
    #expect(
      error("title: t\npipeline: s\ns  warm  -a|")
        == "f.marbles:3:4: unknown row kind 'warm'; a row's kind is one of hot, send, cold, sub, gets, subs"
    )
    #expect(error("// nothing") == "f.marbles:1:1: the file has no scenario (no 'title:' line)")
  }

  @Test func quotedValuesHoldCommasSpacesAndEscapes() throws {
    let scenario = try firstScenario(
      #"""
      title: quoted
      values: a = "x, y", b = "  padded  ", c = "say \"hi\"", d = plain text
      pipeline: src
      src   hot   -a-b-c-d|
      sub   gets  -a-b-c-d|
      """#)
    #expect(
      scenario.values == ["a": "x, y", "b": "  padded  ", "c": #"say "hi""#, "d": "plain text"])
    #expect(try Fixtures.run(scenario).passed)
  }

  @Test(arguments: [
    (#"values: a = "open"#, 13, "this quoted value is never closed"),
    (#"values: a = "x" y"#, 17, "expected ',' after the quoted value"),
    ("values: a = x, a = y", 16, "'a' is given a value twice"),
    (
      "values: a = x,  bb = y", 17,
      "write each value as 'k = text' with a one-character key, "
        + "separated by commas"
    ),
  ])
  func aBadValuesEntryIsReportedAtItsFirstCharacter(line: String, column: Int, message: String) {
    let file = Fixtures.read(
      """
      title: t
      \(line)
      pipeline: src
      src   hot   -a|
      """, path: "t.marbles")
    #expect(file.scenarios.isEmpty)
    #expect(file.errors.map(\.syntax.line) == [2])
    #expect(file.errors.map(\.syntax.column) == [column])
    #expect(file.errors.map(\.syntax.message) == [message])
  }

  @Test func failureNeverMakesAHashAMistake() throws {
    let file = Fixtures.read(
      """
      title: cannot fail
      failure: never
      pipeline: src
      src   hot   -a-#
      sub   gets  -a-#
      """, path: "t.marbles")
    #expect(file.scenarios.isEmpty)
    #expect(
      file.errors.map { "\($0.syntax.line):\($0.syntax.column): \($0.syntax.message)" } == [
        "4:16: '#' is an error, but this signal cannot fail (its Failure is Never)",
        "5:16: '#' is an error, but this signal cannot fail (its Failure is Never)",
      ])
    let fine = try firstScenario(
      """
      title: cannot fail
      failure: never
      pipeline: src | map(upper)
      src   hot   -a-b|
      sub   gets  -A-B|
      """)
    #expect(fine.cannotFail)
    #expect(try Fixtures.run(fine).passed)
  }

  @Test func everyMistakeIsFoundAndTheOtherScenariosStay() {
    let file = Fixtures.read(
      """
      title: broken twice
      pipeline: nowhere
      src   hot   -a-(b|
      title: fine
      pipeline: src
      src   hot   -a|
      sub   gets  -a|
      title:
      pipeline: src
      src   hot   -a|
      """, path: "t.marbles")
    #expect(file.scenarios.map(\.title) == ["fine"])
    #expect(
      file.errors.map { "\($0.syntax.line):\($0.syntax.column)" } == ["2:11", "3:16", "8:7"])
  }
}
