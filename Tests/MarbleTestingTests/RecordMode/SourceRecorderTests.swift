import Dispatch
import MarbleTesting
import Synchronization
import TestSupport
import Testing

/// Record mode's room, on strings before files: finding a call's marble literal without a Swift
/// parser and rewriting only it. The compiler's `#column` of a call is its `(`.
@Suite struct SourceRecorderTests {
  /// `source` with the call whose `(` follows `marker` recorded.
  func recorded(
    _ source: String, after marker: String, _ marbles: [String], replacing expected: [String],
    at target: SourceRecorder.Target, onlyIfEmpty: Bool = false
  ) throws -> String {
    let scanner = SwiftCallScanner(source)
    let bytes = Array(source.utf8)
    let markerBytes = Array(marker.utf8)
    let start = (0...(bytes.count - markerBytes.count)).first {
      Array(bytes[$0..<$0 + markerBytes.count]) == markerBytes
    }!
    let edits = try SourceRecorder.edits(
      marbles, replacing: expected, at: target, onlyIfEmpty: onlyIfEmpty, scanner: scanner,
      callStart: start + markerBytes.count)
    return String(decoding: LiteralRewrite.apply(edits, to: bytes), as: UTF8.self)
  }

  @Test func aPlainLiteral() throws {
    #expect(
      try recorded(
        #"assertMarbles(recorder, "-a-b|")"#, after: "assertMarbles", ["--x|"],
        replacing: ["-a-b|"],
        at: .argument(1))
        == #"assertMarbles(recorder, "--x|")"#)
  }

  @Test func aRawLiteralKeepsItsPounds() throws {
    #expect(
      try recorded(
        ##"assertMarbles(r, #"-a|"#, values: v)"##, after: "assertMarbles", ["b-|"],
        replacing: ["-a|"], at: .argument(1))
        == ##"assertMarbles(r, #"b-|"#, values: v)"##)
  }

  @Test func aMultilineLiteralKeepsItsIndentation() throws {
    let source = """
      func f() {
        assertMarbles(
          r,
          \"\"\"
          -a-|
          \"\"\"
        )
      }
      """
    let expected = """
      func f() {
        assertMarbles(
          r,
          \"\"\"
          --b|
          \"\"\"
        )
      }
      """
    #expect(
      try recorded(source, after: "assertMarbles", ["--b|"], replacing: ["-a-|"], at: .argument(1))
        == expected)
  }

  @Test func stringsCommentsAndEscapesElsewhereAreSkipped() throws {
    let source = #"""
      assertMarbles(scheduler.record(try scheduler.cold("a\"(,)\\", values: ["(": 1])), /* "x", ) */ "-a|" // ",
      )
      """#
    let expected = #"""
      assertMarbles(scheduler.record(try scheduler.cold("a\"(,)\\", values: ["(": 1])), /* "x", ) */ "(ab)|" // ",
      )
      """#
    #expect(
      try recorded(source, after: "assertMarbles", ["(ab)|"], replacing: ["-a|"], at: .argument(1))
        == expected)
  }

  @Test func aToBeOnTheNextLine() throws {
    let source = """
      scheduler.expect(input.map { $0 + "!" }, subscription: "^--!")
        // the marble:
        .toBe("-a-", values: ["a": "x!"])
      """
    let expected = """
      scheduler.expect(input.map { $0 + "!" }, subscription: "^--!")
        // the marble:
        .toBe("-a-b", values: ["a": "x!"])
      """
    #expect(
      try recorded(source, after: "scheduler.expect", ["-a-b"], replacing: ["-a-"], at: .toBe)
        == expected)
  }

  @Test func twoCallsOnOneLine() throws {
    let source = #"assertMarbles(a, "-a|"); assertMarbles(b, "-b|")"#
    #expect(
      try recorded(
        source, after: "; assertMarbles", ["---b|"], replacing: ["-b|"], at: .argument(1))
        == #"assertMarbles(a, "-a|"); assertMarbles(b, "---b|")"#)
  }

  @Test(arguments: [
    #"assertMarbles(r, expected)"#, #"assertMarbles(r, "-\(x)|")"#,
    #"assertMarbles(r, "-a" + "|")"#, #"assertMarbles(r, marbles[0])"#,
  ])
  func aMarbleThatIsNotAStringLiteralIsRefused(_ source: String) {
    #expect(throws: LiteralRewrite.Refusal("the marble is not a string literal")) {
      try recorded(source, after: "assertMarbles", ["-a|"], replacing: ["-a|"], at: .argument(1))
    }
  }

  @Test func missingFillsOnlyEmptyLiterals() throws {
    #expect(
      try recorded(
        #"assertMarbles(r, "")"#, after: "assertMarbles", ["-a|"], replacing: [""],
        at: .argument(1), onlyIfEmpty: true)
        == #"assertMarbles(r, "-a|")"#)
    #expect(
      try recorded(
        #"assertMarbles(r, "-b|")"#, after: "assertMarbles", ["-a|"], replacing: ["-b|"],
        at: .argument(1), onlyIfEmpty: true)
        == #"assertMarbles(r, "-b|")"#)
  }

  /// `missing` writes a table's placeholder rows — the rows the docs tell a user to start with —
  /// and leaves every row with a marble of its own. (On 2026-11-27's `main` it wrote nothing into
  /// a table; `failed` then wrote it.)
  @Test func missingFillsATablesPlaceholderRowsOnly() throws {
    let source = """
      assertTable(\"\"\"
        src  hot   -a-b|
        out  gets  -
        two  gets  -x|
        src  subs  ^
        \"\"\") { $0["src"] }
      """
    let expected = """
      assertTable(\"\"\"
        src  hot   -a-b|
        out  gets  -a-b|
        two  gets  -x|
        src  subs  ^---!
        \"\"\") { $0["src"] }
      """
    #expect(
      try recorded(
        source, after: "assertTable", [],
        replacing: ["src  hot   -a-b|\nout  gets  -\ntwo  gets  -x|\nsrc  subs  ^"],
        at: .table([
          .row(line: 2, marble: "-a-b|"), .row(line: 3, marble: "-a-b|"),
          .subscriptions(label: "src", lines: [4], marbles: ["^---!"]),
        ]), onlyIfEmpty: true)
        == expected)
  }

  @Test func subscriptionMarblesAreRewrittenOneForOneOrAsANewList() throws {
    #expect(
      try recorded(
        #"assertSubscriptions(s, "^-!", "-^!")"#, after: "assertSubscriptions", ["^--!", "-^!"],
        replacing: ["^-!", "-^!"], at: .arguments(from: 1))
        == #"assertSubscriptions(s, "^--!", "-^!")"#)
    #expect(
      try recorded(
        #"assertSubscriptions(s, "^-!", line: 3)"#, after: "assertSubscriptions", ["^--!", "-^!"],
        replacing: ["^-!"], at: .arguments(from: 1))
        == #"assertSubscriptions(s, "^--!", "-^!", line: 3)"#)
    #expect(
      try recorded(
        #"scheduler.expectSubscriptions(s).toBe("^-!", "-^!")"#, after: "expectSubscriptions",
        ["^"], replacing: ["^-!", "-^!"], at: .toBeArguments)
        == #"scheduler.expectSubscriptions(s).toBe("^")"#)
  }

  @Test func aTablesRowsChangeOnlyInTheirMarbles() throws {
    let source = """
        assertTable(
          \"\"\"
          fetch  cold  ---r|
          sub1   sub   -^--------
          sub1   gets  ----r|
          // a comment
          sub2   gets  ------(r|)
          fetch  subs  -^---!
          \"\"\"
        ) { $0["fetch"].replayLazily() }
      """
    let expected = """
        assertTable(
          \"\"\"
          fetch  cold  ---r|
          sub1   sub   -^--------
          sub1   gets  ----r|
          // a comment
          sub2   gets  ---r|
          fetch  subs  -^---!
          fetch  subs  ^---!
          \"\"\"
        ) { $0["fetch"].replayLazily() }
      """
    #expect(
      try recorded(
        source, after: "assertTable", [],
        replacing: [
          """
          fetch  cold  ---r|
          sub1   sub   -^--------
          sub1   gets  ----r|
          // a comment
          sub2   gets  ------(r|)
          fetch  subs  -^---!
          """
        ],
        at: .table([
          .row(line: 5, marble: "---r|"),
          .subscriptions(label: "fetch", lines: [6], marbles: ["-^---!", "^---!"]),
        ]))
        == expected)
  }

  @Test func extraSubsRowsAreRemoved() throws {
    let source = """
      assertTable(\"\"\"
        src  hot   -a|
        out  gets  -a|
        src  subs  ^-!
        src  subs  -^!
        \"\"\") { $0["src"] }
      """
    let expected = """
      assertTable(\"\"\"
        src  hot   -a|
        out  gets  -a|
        src  subs  ^-!
        \"\"\") { $0["src"] }
      """
    #expect(
      try recorded(
        source, after: "assertTable", [],
        replacing: ["src  hot   -a|\nout  gets  -a|\nsrc  subs  ^-!\nsrc  subs  -^!"],
        at: .table([.subscriptions(label: "src", lines: [3, 4], marbles: ["^-!"])]))
        == expected)
  }

  // MARK: A fuzz test over generated call sites

  /// Generated call sites — plain and raw literals with any number of `#`, comments and line
  /// breaks around the argument, other arguments with strings, brackets and escapes, a second call
  /// on the line, the `toBe` on a later line — each rewritten: everything before and after the
  /// literal is byte for byte the same, and the new literal reads back as the marble.
  @Test func everyGeneratedCallSiteChangesOnlyItsLiteral() throws {
    var generator = SplitMix(seed: 0x6d61_7262_6c65)
    let marbles = ["-a-b|", "(ab)|", "--", "^-!", "a 10ms b", "-[xy]-#", ""]
    for _ in 0..<2_000 {
      let pounds = String(repeating: "#", count: Int.random(in: 0..<3, using: &generator))
      let old = marbles[Int.random(in: 0..<marbles.count, using: &generator)]
      let new = marbles[Int.random(in: 0..<marbles.count, using: &generator)]
      let literal = pounds + "\"" + old + "\"" + pounds
      let trivia = [" ", "  ", "\n    ", " /* a, \"b\" ) */ ", " // x, \"y\"\n  "]
      func pick() -> String { trivia[Int.random(in: 0..<trivia.count, using: &generator)] }
      let first = [
        "recorder", "scheduler.record(try scheduler.cold(\"-a\\\"|\", values: [\"a\": \"(\"]))",
        "r[0]", "{ \")\" }()",
      ][Int.random(in: 0..<4, using: &generator)]
      let isToBe = Int.random(in: 0..<2, using: &generator) == 0
      // The source is `before + literal + rest`.
      let before: String
      let rest: String
      if isToBe {
        before =
          "// header\nlet x = 1; scheduler.expect(\(first))" + pick() + ".toBe(" + pick()
        rest = pick() + ", values: [\"a\": 1]); f(\"z\")\n"
      } else {
        before = "// header\nassertMarbles(\(first)," + pick()
        rest = pick() + "); f(\"z\")\n"
      }
      let source = before + literal + rest
      let after = isToBe ? "scheduler.expect" : "assertMarbles"
      let rewritten = try recorded(
        source, after: after, [new], replacing: [old], at: isToBe ? .toBe : .argument(1))
      #expect(rewritten.hasPrefix(before), "\(source)")
      #expect(rewritten.hasSuffix(rest), "\(source)")
      let middle = String(rewritten.utf8.dropFirst(before.utf8.count).dropLast(rest.utf8.count))!
      #expect(middle == pounds + "\"" + new + "\"" + pounds, "\(source)")
      // It reads back as one plain string literal holding the marble.
      let scanner = SwiftCallScanner(middle)
      let read = try #require(scanner.stringLiteral(at: 0))
      #expect(read.range == 0..<middle.utf8.count)
      #expect(!read.isInterpolated)
      #expect(String(decoding: scanner.text[read.contentRange], as: UTF8.self) == new)
    }
  }

  // MARK: Files

  @Test func severalRewritesOfOneFileFromManyThreadsAllLand() throws {
    let calls = (0..<40).map { index in
      "  assertMarbles(r\(index), \"\"); assertMarbles(s\(index), \"-\")"
    }
    let folder = makeScratchFolder("recorder")
    defer { removeScratchFolder(folder) }
    let path = folder + "/Threads.swift"
    writeFile("func test() {\n" + calls.joined(separator: "\n") + "\n}\n", to: path)
    let failures = Mutex<[String]>([])
    DispatchApplyish.concurrentPerform(iterations: 80) { index in
      let row = index / 2
      let line = row + 2
      let column =
        index % 2 == 0
        ? "  assertMarbles".utf8.count + 1
        : "  assertMarbles(r\(row), \"\"); assertMarbles".utf8.count + 1
      do {
        _ = try SourceRecorder.record(
          ["-\(row)|"], replacing: [index % 2 == 0 ? "" : "-"], at: .argument(1),
          onlyIfEmpty: false, path: path, line: line, column: column)
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    #expect(failures.withLock { $0 } == [])
    let expected = (0..<40).map { index in
      "  assertMarbles(r\(index), \"-\(index)|\"); assertMarbles(s\(index), \"-\(index)|\")"
    }
    #expect(readFile(path) == "func test() {\n" + expected.joined(separator: "\n") + "\n}\n")
  }

  @Test func aCallThatNoLongerHoldsTheComparedMarbleIsNotRewritten() throws {
    // Compiled with the failing calls on lines 2 and 3; two lines were inserted at the top
    // since, so those lines now hold calls that passed.
    let folder = makeScratchFolder("recorder")
    defer { removeScratchFolder(folder) }
    let path = folder + "/Moved.swift"
    let text = """
      import Marbles
      // a comment added after the build
      func test() {
        assertMarbles(a, "-a-b|")
        assertMarbles(b, "-a-b|")
        assertMarbles(c, "-x|")
        assertMarbles(d, "-y|")
      }

      """
    writeFile(text, to: path)
    for (line, expected) in [(2, "-x|"), (3, "-y|")] {
      #expect(
        throws: LiteralRewrite.Refusal(
          "the file changed since it was compiled: the call there holds \"-a-b|\", not the "
            + "\"\(expected)\" its assertion compared; nothing was written (build and run again "
            + "to record)")
      ) {
        try SourceRecorder.record(
          ["-A-B|"], replacing: [expected], at: .argument(1), onlyIfEmpty: false, path: path,
          line: line + 2, column: 16)
      }
    }
    #expect(readFile(path) == text)
    #expect(
      throws: LiteralRewrite.Refusal(
        "\(path) changed since it was compiled: it has no line 40, column 16 any more; nothing "
          + "was written")
    ) {
      try SourceRecorder.record(
        ["-A|"], replacing: ["-x|"], at: .argument(1), onlyIfEmpty: false, path: path,
        line: 40, column: 16)
    }
  }

  @Test func literalsReadAsTheCompilerReadsThem() throws {
    let cases: [(source: String, value: String?)] = [
      (#""-a|""#, "-a|"),
      (#""a\"b\\c\td\u{301}""#, "a\"b\\c\td\u{301}"),
      (##"#"-\a|\#n"#"##, "-\\a|\n"),
      ("\"\"\"\n    -a|\n    b\\\n    c\n    \"\"\"", "-a|\nbc"),
      ("\"\"\"\n  x\n\n  y\n  \"\"\"", "x\n\ny"),
      ("\"\"\"\n  \"\"\"", ""),
      (#""\(x)""#, nil),
      (#""\q""#, nil),
    ]
    for (source, value) in cases {
      let scanner = SwiftCallScanner(source)
      let literal = try #require(scanner.stringLiteral(at: 0), "\(source)")
      #expect(scanner.value(of: literal) == value, "\(source)")
    }
  }

  @Test func aTableRowWithANonASCIILabelStaysAligned() throws {
    // "café" is 4 characters and 5 bytes; "nai\u{308}ve" ("naïve" decomposed) 5 characters
    // and 7 bytes. A table aligns characters.
    let table = "café   cold  -a|\nnai\u{308}ve  gets  -a|\nout    gets  -b|"
    let source = "assertTable(\"\"\"\n  \(table.replacing("\n", with: "\n  "))\n  \"\"\")"
    let rewritten = try recorded(
      source, after: "assertTable", [], replacing: [table],
      at: .table([.row(line: 2, marble: "--a|"), .row(line: 3, marble: "(ab|)")]))
    let recordedTable = "café   cold  -a|\nnai\u{308}ve  gets  --a|\nout    gets  (ab|)"
    #expect(
      rewritten
        == "assertTable(\"\"\"\n  \(recordedTable.replacing("\n", with: "\n  "))\n  \"\"\")")
    #expect(throws: Never.self) { try MarbleTable.parse(recordedTable) }
  }

  @Test func aSymbolicLinkStaysALinkAndItsTargetKeepsItsMode() throws {
    let folder = makeScratchFolder("recorder")
    defer { removeScratchFolder(folder) }
    let target = folder + "/Target.swift"
    let link = folder + "/Link.swift"
    writeFile("func test() {\n  assertMarbles(r, \"-a|\")\n}\n", to: target, mode: 0o640)
    makeSymbolicLink(link, to: "Target.swift")
    #expect(
      try SourceRecorder.record(
        ["--a|"], replacing: ["-a|"], at: .argument(1), onlyIfEmpty: false, path: link, line: 2,
        column: 16))
    #expect(fileKind(link)?.isSymbolicLink == true)
    #expect(fileKind(target)?.isSymbolicLink == false)
    #expect(fileKind(target)?.mode == 0o640)
    #expect(readFile(link) == "func test() {\n  assertMarbles(r, \"--a|\")\n}\n")
    // No temporary file is left behind.
    #expect(filesIn(folder) == ["Link.swift", "Target.swift"])
  }

  @Test func aRelativePathIsTakenFromTheRecordersFolder() throws {
    let folder = makeScratchFolder("recorder")
    defer { removeScratchFolder(folder) }
    writeFile("assertMarbles(r, \"\")\n", to: folder + "/Relative.swift")
    let written = try SourceRecorder.$folder.withValue(folder) {
      try SourceRecorder.record(
        ["-a|"], replacing: [""], at: .argument(1), onlyIfEmpty: true, path: "Relative.swift",
        line: 1, column: 14)
    }
    #expect(written)
    #expect(readFile(folder + "/Relative.swift") == "assertMarbles(r, \"-a|\")\n")
  }
}

/// `concurrentPerform` without Foundation: `iterations` threads' worth of work on Dispatch.
enum DispatchApplyish {
  static func concurrentPerform(iterations: Int, _ body: @Sendable (Int) -> Void) {
    withoutActuallyEscaping(body) { body in
      let group = DispatchGroup()
      for index in 0..<iterations {
        DispatchQueue.global().async(group: group) { body(index) }
      }
      group.wait()
    }
  }
}
