import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Record mode through the assertions: each writes the actual marble into the "source file" its
/// call names — here a scratch file under /tmp, named by the `filePath:`, `line:` and `column:`
/// the assertions take — and still fails, saying what it wrote where.
@Suite struct RecordModeTests {
  /// Writes `text` to `path`.
  static func write(_ text: String, to path: StaticString) {
    let descriptor = open("\(path)", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(descriptor >= 0)
    _ = Array(text.utf8).withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
  }

  static func read(_ path: StaticString) -> String {
    let descriptor = open("\(path)", O_RDONLY)
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The messages of the issues `body` records.
  static func issues(_ body: () throws -> Void) rethrows -> [String] {
    let messages = Mutex<[String]>([])
    try withKnownIssue {
      try body()
    } matching: { issue in
      messages.withLock { $0 += issue.comments.map(\.rawValue) }
      return true
    }
    return messages.withLock { $0 }
  }

  /// Writes `text` to `path`, runs `body` (whose assertions fail) in record mode `mode`, and
  /// returns the file as it is then and the failures' messages.
  static func recording(
    _ text: String, in path: StaticString, mode: MarbleRecording, _ body: () -> Void
  ) -> (file: String, messages: [String]) {
    write(text, to: path)
    let messages = issues { withMarbleRecording(mode, body) }
    return (read(path), messages)
  }

  static func recorder(_ marbles: String) throws -> TestSubscriber<String, TestError> {
    let scheduler = TestScheduler()
    let recorder = scheduler.record(try scheduler.cold(marbles))
    scheduler.run()
    return recorder
  }

  @Test func aFailingAssertMarblesIsRewrittenAndStillFails() throws {
    let path: StaticString = "/tmp/marbles-record-assert-marbles.swift"
    Self.write("func t() {\n  assertMarbles(recorder, \"-a|\")  // after\n}\n", to: path)
    let recorder = try Self.recorder("--a|")
    let messages = Self.issues {
      withMarbleRecording(.failed) {
        assertMarbles(recorder, "-a|", fileID: "X/File.swift", filePath: path, line: 2, column: 16)
      }
    }
    #expect(Self.read(path) == "func t() {\n  assertMarbles(recorder, \"--a|\")  // after\n}\n")
    #expect(messages.count == 1)
    #expect(messages.first?.hasPrefix("marbles differ at frame 1") == true)
    #expect(
      messages.first?.hasSuffix(
        "\nrecorded `--a|` at X/File.swift:2; re-run without MARBLES_RECORD") == true)
  }

  @Test func missingFillsAnEmptyLiteralAndLeavesAWrongOne() throws {
    let path: StaticString = "/tmp/marbles-record-missing.swift"
    Self.write("assertMarbles(r, \"\")\nassertMarbles(r, \"-b|\")\n", to: path)
    let recorder = try Self.recorder("-(ab)|")
    let messages = Self.issues {
      withMarbleRecording(.missing) {
        assertMarbles(recorder, "", filePath: path, line: 1, column: 14)
        assertMarbles(recorder, "-b|", filePath: path, line: 2, column: 14)
      }
    }
    #expect(Self.read(path) == "assertMarbles(r, \"-(ab)|\")\nassertMarbles(r, \"-b|\")\n")
    #expect(messages.count == 2)
    #expect(messages[0].contains("recorded `-(ab)|`"))
    #expect(!messages[1].contains("recorded"))
  }

  @Test func valuesAreWrittenThroughTheExpectationsOwnMap() throws {
    let path: StaticString = "/tmp/marbles-record-values.swift"
    Self.write(
      "scheduler.expect(numbers)\n  .toBe(\"\", values: [\"x\": 10, \"y\": 20])\n", to: path)
    let scheduler = TestScheduler()
    let numbers: TestSignal<Int, Never> = try scheduler.hot(
      "-1-2|", values: ["1": 10, "2": 20])
    _ = Self.issues {
      withMarbleRecording(.failed) {
        scheduler.expect(numbers, filePath: path, line: 1, column: 17)
          .toBe("", values: ["x": 10, "y": 20])
        scheduler.flush()
      }
    }
    #expect(
      Self.read(path)
        == "scheduler.expect(numbers)\n  .toBe(\"-x-y|\", values: [\"x\": 10, \"y\": 20])\n")
  }

  @Test func aValueWithNoKeyIsNotRecordedAndTheFailureSaysWhich() throws {
    let path: StaticString = "/tmp/marbles-record-no-key.swift"
    let text = "assertMarbles(r, \"-x|\", values: [\"x\": 10])\n"
    Self.write(text, to: path)
    let scheduler = TestScheduler()
    let numbers: TestSignal<Int, Never> = try scheduler.cold("-1-2|", values: ["1": 10, "2": 20])
    let recorder = scheduler.record(numbers)
    scheduler.run()
    let messages = Self.issues {
      withMarbleRecording(.failed) {
        assertMarbles(recorder, "-x|", values: ["x": 10], filePath: path, line: 1, column: 14)
      }
    }
    #expect(Self.read(path) == text)
    #expect(
      messages.first?.hasSuffix(
        "\nnot recorded (MARBLES_RECORD=failed): the value 20 at tick 3 has no key in values:")
        == true)
  }

  @Test func aMarbleThatIsNotAStringLiteralIsNotRecorded() throws {
    let path: StaticString = "/tmp/marbles-record-variable.swift"
    let text = "assertMarbles(r, expected)\n"
    let recorder = try Self.recorder("-a|")
    let (file, messages) = Self.recording(text, in: path, mode: .failed) {
      assertMarbles(recorder, "--a|", filePath: path, line: 1, column: 14)
    }
    #expect(file == text)
    #expect(messages.first?.hasSuffix("the marble is not a string literal") == true)
  }

  @Test func subscriptionsAreRecorded() throws {
    let path: StaticString = "/tmp/marbles-record-subscriptions.swift"
    Self.write(
      "assertSubscriptions(fetch, \"^!\")\nscheduler.expectSubscriptions(fetch).toBe()\n", to: path)
    let scheduler = TestScheduler()
    let fetch = try scheduler.cold("--r|")
    _ = scheduler.record(fetch, subscribeAt: 1)
    _ = scheduler.record(fetch, subscribeAt: 2, disposeAt: 4)
    scheduler.run()
    _ = Self.issues {
      withMarbleRecording(.failed) {
        assertSubscriptions(fetch, "^!", filePath: path, line: 1, column: 20)
      }
    }
    #expect(Self.read(path).hasPrefix("assertSubscriptions(fetch, \"-^--!\", \"--^-!\")\n"))
  }

  @Test func neverRecordsNothing() throws {
    let path: StaticString = "/tmp/marbles-record-never.swift"
    let text = "assertMarbles(r, \"\")\n"
    let recorder = try Self.recorder("-a|")
    let (file, messages) = Self.recording(text, in: path, mode: .never) {
      assertMarbles(recorder, "", filePath: path, line: 1, column: 14)
    }
    #expect(file == text)
    #expect(messages.first?.contains("recorded") == false)
  }

  @Test func aTablesWrongRowsAreRecorded() throws {
    let path: StaticString = "/tmp/marbles-record-table.swift"
    Self.write(
      """
      func t() {
        assertTable(
          \"\"\"
          fetch  cold  ---r|
          sub1   sub   -^--------
          sub1   gets  ----r|
          sub2   sub   ------^---
          sub2   gets  ------(r|)
          fetch  subs  -^---!
          \"\"\"
        ) { $0["fetch"].replayLazily() }
      }

      """, to: path)
    let messages = Self.issues {
      withMarbleRecording(.failed) {
        assertTable(
          """
          fetch  cold  ---r|
          sub1   sub   -^--------
          sub1   gets  ----r|
          sub2   sub   ------^---
          sub2   gets  ------(r|)
          fetch  subs  -^---!
          """, filePath: path, line: 2, column: 14
        ) { $0["fetch"] }
      }
    }
    #expect(
      Self.read(path) == """
        func t() {
          assertTable(
            \"\"\"
            fetch  cold  ---r|
            sub1   sub   -^--------
            sub1   gets  ----r|
            sub2   sub   ------^---
            sub2   gets  ---------r|
            fetch  subs  -^---!
            fetch  subs  ------^---!
            \"\"\"
          ) { $0["fetch"].replayLazily() }
        }

        """)
    #expect(messages.first?.hasSuffix("re-run without MARBLES_RECORD") == true)
  }

  // snippet: record-mode-after
  @Test func debounceWaitsForAQuietPeriod() throws {
    let scheduler = TestScheduler()
    let input = try scheduler.hot("-a-b---c--|")
    scheduler.expect(input.debounce(.milliseconds(2), on: scheduler)).toBe("-----b---c|")
    scheduler.flush()
  }
  // snippet-end

  @Test(.marbleRecording(.failed)) func theTraitSetsTheModeForItsTest() throws {
    let path: StaticString = "/tmp/marbles-record-trait.swift"
    Self.write("assertMarbles(r, \"\")\n", to: path)
    let recorder = try Self.recorder("a|")
    _ = Self.issues {
      assertMarbles(recorder, "", filePath: path, line: 1, column: 14)
    }
    #expect(Self.read(path) == "assertMarbles(r, \"a|\")\n")
  }
}
