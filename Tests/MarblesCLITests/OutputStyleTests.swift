import MarblesCLI
import Testing

/// When `marbles` colours its output, and what the colours are.
@Suite struct OutputStyleTests {
  @Test(
    arguments: [
      // (terminal, NO_COLOR, --no-color) → coloured
      (true, nil, false, true),
      (true, "", false, true),
      (true, "1", false, false),
      (true, "0", false, false),  // any non-empty value counts (no-color.org)
      (true, nil, true, false),
      (false, nil, false, false),
      (false, "", false, false),
    ] as [(Bool, String?, Bool, Bool)])
  func colourOnlyOnATerminalWithoutNoColor(
    terminal: Bool, noColorVariable: String?, noColorOption: Bool, coloured: Bool
  ) {
    var environment = ["TERM": "xterm-256color"]
    environment["NO_COLOR"] = noColorVariable
    let style = OutputStyle.choose(
      noColorOption: noColorOption, environment: environment, outputIsTerminal: terminal)
    #expect(style.colored == coloured)
  }

  @Test func plainTextIsLeftAlone() {
    let style = OutputStyle.plain
    #expect(style.pass("PASS") == "PASS")
    #expect(style.fail("FAIL") == "FAIL")
    #expect(style.dim("a.marbles:1") == "a.marbles:1")
  }

  @Test func colouredTextIsWrappedInAnEscapeAndAReset() {
    let style = OutputStyle(colored: true)
    #expect(style.pass("PASS") == "\u{1B}[32mPASS\u{1B}[0m")
    #expect(style.fail("FAIL") == "\u{1B}[31mFAIL\u{1B}[0m")
    #expect(style.dim("a.marbles:1") == "\u{1B}[2ma.marbles:1\u{1B}[0m")
  }
}
