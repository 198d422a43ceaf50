import MarbleTesting
import Testing

@Suite struct MarbleTableTests {
  @Test func readsRowsOnOneTimeAxis() throws {
    let table = try MarbleTable.parse(
      """
      // the six requests, shared
      fetch   cold  ---r|

      sub1    sub   ^---------
      sub1    gets  ---r|
      fetch   subs  ^---!
      """)
    #expect(table.timeAxisColumn == 15)
    #expect(table.rows.map(\.label) == ["fetch", "sub1", "sub1", "fetch"])
    #expect(table.rows.map(\.kind) == [.cold, .sub, .gets, .subs])
    #expect(table.rows.map(\.marble) == ["---r|", "^---------", "---r|", "^---!"])
    #expect(table.rows.map(\.line) == [2, 4, 5, 6])
  }

  @Test func marblesMayContainSpacesForTimeProgression() throws {
    let table = try MarbleTable.parse("src  cold  a 5ms b|   ")
    #expect(table.rows.first?.marble == "a 5ms b|")
  }

  @Test func aMarbleOffTheTimeAxisIsAnErrorAtItsColumn() {
    #expect(
      throws: MarbleSyntaxError(
        message:
          "this marble starts at column 14, but the table's time axis (frame 0) is column 12; "
          + "align every marble on it, padding with '-' rather than spaces",
        line: 2, column: 14, sourceLine: "sub1  sub    ^--")
    ) {
      try MarbleTable.parse(
        """
        src   hot  -a-
        sub1  sub    ^--
        """)
    }
  }

  @Test func anUnknownKindNamesTheKinds() {
    do {
      _ = try MarbleTable.parse("src  warm  -a-", firstLine: 7)
      Issue.record("expected a throw")
    } catch {
      #expect(error.line == 7)
      #expect(error.column == 6)
      #expect(
        error.description == """
          line 7, column 6: unknown row kind 'warm'; a row's kind is one of hot, send, cold, sub, gets, subs
            src  warm  -a-
                 ^
          """)
    }
  }

  @Test func aRowWithoutAMarbleOrKindIsAnError() {
    #expect(throws: MarbleSyntaxError.self) { try MarbleTable.parse("src  cold") }
    #expect(throws: MarbleSyntaxError.self) { try MarbleTable.parse("src") }
    #expect(throws: MarbleSyntaxError.self) { try MarbleTable.parse("// only a comment\n\n") }
  }

  @Test func aHotRowCannotMoveFrameZero() {
    do {
      _ = try MarbleTable.parse("src  hot  --^-a-")
      Issue.record("expected a throw")
    } catch {
      #expect(error.column == 13)
      #expect(error.message.hasPrefix("a hot row in a table cannot move frame 0 with '^'"))
    }
  }
}
