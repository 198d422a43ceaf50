@preconcurrency import Dispatch
import Foundation
import MarbleTesting
import Marbles
import Signals
import Synchronization
import TestSupport
import Testing

/// Record mode through the assertions: each writes the actual marble into the "source file" its
/// call names — here a scratch file in a temporary folder of this test's own, named by the
/// relative `filePath:` and the `line:` and `column:` the assertions take — and still fails,
/// saying what it wrote where.
@Suite(.takesIssues) final class RecordModeTests {
  /// This test's folder: relative paths are taken from it.
  let folder = makeScratchFolder("record-mode")

  deinit { removeScratchFolder(folder) }

  /// Writes `text` to `path`, in this test's folder.
  func write(_ text: String, to path: StaticString) {
    writeFile(text, to: folder + "/\(path)")
  }

  /// The text of `path`, in this test's folder.
  func read(_ path: StaticString) -> String {
    readFile(folder + "/\(path)") ?? ""
  }

  /// The messages of the issues `body` records, recording into this test's folder, taken instead
  /// of reported: a warning's (what recording did) begins `warning: `.
  func issues(_ body: () throws -> Void) rethrows -> [String] {
    try SourceRecorder.$folder.withValue(folder) {
      try takingIssues(body).map { ($0.severity == .warning ? "warning: " : "") + $0.commentText }
    }
  }

  /// Writes `text` to `path`, runs `body` (whose assertions fail) in record mode `mode`, and
  /// returns the file as it is then and the failures' messages.
  func recording(
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

  /// An exploration records from schedule 0 alone — the order a plain run has. Another
  /// schedule's actual marble is a rare order's, and the failing schedule is re-run and shrunk in
  /// rare orders too. (On 2026-11-28's `main`, MARBLES_RECORD=failed rewrote a correct "(ab)" to
  /// a rare schedule's "(ba)".)
  @Test func anExplorationRecordsNothingFromItsOtherSchedules() async {
    let path: StaticString = "record-explored.swift"
    write("assertMarbles(recorder, \"(ab)\")\n", to: path)
    let messages = Mutex<[String]>([])
    await SourceRecorder.$folder.withValue(folder) {
      await withKnownIssue {
        await withMarbleRecording(.failed) {
          _ = await exploreSchedules(50, seed: 1) {
            let scheduler = TestScheduler()
            let subject = Subject<String, Never>()
            let recorder = scheduler.record(subject)
            scheduler.task { subject.sendNext("a") }
            scheduler.task { subject.sendNext("b") }
            scheduler.run()
            assertMarbles(
              recorder, "(ab)", fileID: "X/File.swift", filePath: path, line: 1, column: 14)
          }
        }
      } matching: { issue in
        messages.withLock { $0 += issue.comments.map(\.rawValue) }
        return true
      }
    }
    #expect(read(path) == "assertMarbles(recorder, \"(ab)\")\n")
    #expect(messages.withLock { $0.count } == 1)
    #expect(messages.withLock { $0.first?.contains("(ba)") } == true)
    #expect(messages.withLock { $0.first?.contains("recorded") } == false)
  }

  /// An exploration whose schedule 0 fails records schedule 0's actual marble, from the failing
  /// schedule's last run, whose issue is real; inside a `withKnownIssue` nothing is written. (On
  /// 2026-11-28's `main` schedule 0's run recorded while its issues were held, known or not.)
  @Test(arguments: [false, true])
  func anExplorationRecordsAFailingScheduleZeroUnlessTheFailureIsKnown(_ isKnown: Bool) async {
    let path: StaticString = "record-explored-zero.swift"
    write("assertMarbles(recorder, \"(ab)\")\n", to: path)
    await SourceRecorder.$folder.withValue(folder) {
      let issues = await takingIssues {
        await withMarbleRecording(.failed) {
          let explore = {
            _ = await exploreSchedules(20, seed: 1) {
              let scheduler = TestScheduler()
              let subject = Subject<String, Never>()
              let recorder = scheduler.record(subject)
              scheduler.task { subject.sendNext("b") }
              scheduler.run()
              assertMarbles(
                recorder, "(ab)", fileID: "X/File.swift", filePath: path, line: 1, column: 14)
            }
          }
          if isKnown {
            await withKnownIssue { await explore() }
          } else {
            await explore()
          }
        }
      }
      #expect(
        issues.filter { $0.severity == .warning && $0.commentText.hasPrefix("recorded") }.count
          == (isKnown ? 0 : 1), "\(issues.map(\.commentText))")
    }
    #expect(
      read(path)
        == (isKnown ? "assertMarbles(recorder, \"(ab)\")\n" : "assertMarbles(recorder, \"b\")\n"))
  }

  @Test func aFailingAssertMarblesIsRewrittenAndStillFails() throws {
    let path: StaticString = "record-assert-marbles.swift"
    write("func t() {\n  assertMarbles(recorder, \"-a|\")  // after\n}\n", to: path)
    let recorder = try Self.recorder("--a|")
    let messages = issues {
      withMarbleRecording(.failed) {
        assertMarbles(recorder, "-a|", fileID: "X/File.swift", filePath: path, line: 2, column: 16)
      }
    }
    #expect(read(path) == "func t() {\n  assertMarbles(recorder, \"--a|\")  // after\n}\n")
    // The failure, then what recording did, as a warning beside it.
    #expect(messages.count == 2)
    #expect(messages.first?.hasPrefix("marbles differ at frame 1") == true)
    #expect(
      messages.last?.hasSuffix(
        "warning: recorded `--a|` at X/File.swift:2; re-run without MARBLES_RECORD") == true)
  }

  /// A recording process killed between writing its temporary file and renaming it over the
  /// source left `.<file>.marbles-<pid>-<n>` in the user's sources for good (2026-11-28's
  /// `main`); the next recording into that file removes those of processes that are gone, and
  /// leaves a live process's alone.
  @Test func anAbandonedTemporaryFileIsRemovedByTheNextRecording() throws {
    let path: StaticString = "record-abandoned.swift"
    write("func t() {\n  assertMarbles(recorder, \"-a|\")\n}\n", to: path)
    // A process id past any pid_max (2^22 on Linux): no such process.
    let abandoned = folder + "/.record-abandoned.swift.marbles-2147483646-7"
    let pid = ProcessInfo.processInfo.processIdentifier
    let live = folder + "/.record-abandoned.swift.marbles-\(pid)-999999"
    writeFile("half a file", to: abandoned)
    writeFile("another recording's", to: live)
    let recorder = try Self.recorder("--a|")
    _ = issues {
      withMarbleRecording(.failed) {
        assertMarbles(recorder, "-a|", fileID: "X/File.swift", filePath: path, line: 2, column: 3)
      }
    }
    #expect(read(path) == "func t() {\n  assertMarbles(recorder, \"--a|\")\n}\n")
    #expect(readFile(abandoned) == nil, "the abandoned temporary file is still there")
    #expect(readFile(live) == "another recording's")
  }

  @Test func aCallThatMovedSinceTheBuildIsNotRewritten() throws {
    // Built with `assertMarbles(recorder, "-x|")` on line 3; a line was inserted at the top
    // since, so line 3 now holds the call above it, which passed.
    let text =
      "// new\nfunc t() {\n  assertMarbles(recorder, \"-a-b|\")\n"
      + "  assertMarbles(recorder, \"-x|\")\n}\n"
    let recorder = try Self.recorder("-a-b|")
    let (file, messages) = recording(text, in: "record-moved.swift", mode: .failed) {
      assertMarbles(recorder, "-x|", filePath: "record-moved.swift", line: 3, column: 16)
    }
    #expect(file == text)
    #expect(messages.count == 2)
    #expect(
      messages.last?.hasSuffix(
        "warning: not recorded (MARBLES_RECORD=failed): the file changed since it was compiled: the call "
          + "there holds \"-a-b|\", not the \"-x|\" its assertion compared; nothing was written "
          + "(build and run again to record)") == true, "\(messages)")
  }

  #if MARBLES_TESTED_RUNTIME
    @Test func whatDrivenWorkDidOutsideVirtualTimeIsNotRecorded() throws {
      let text = "assertMarbles(r, \"-x|\")\n"
      let scheduler = TestScheduler()
      let timer = DispatchSource.makeTimerSource(queue: .global())
      defer { timer.cancel() }
      let recorder = scheduler.record(try scheduler.cold("-a|"))
      scheduler.task {
        timer.setEventHandler {}
        timer.schedule(deadline: .now() + 3600)
        timer.activate()
      }
      scheduler.run()
      let (file, messages) = recording(text, in: "record-outside.swift", mode: .failed) {
        assertMarbles(recorder, "-x|", filePath: "record-outside.swift", line: 1, column: 14)
      }
      #expect(file == text)
      #expect(
        messages.last?.hasSuffix(
          "warning: not recorded (MARBLES_RECORD=failed): driven work ran outside virtual time (a "
            + "Dispatch timer source on a global queue was made at tick 0; it runs in real time "
            + "— give it a queue of its own or the main queue, or use DispatchQueue.asyncAfter, a "
            + "standard sleep or the scheduler's clock), so the actual marble may not be "
            + "what the code does in virtual time; give that work to the scheduler, or write the "
            + "marble by hand") == true, "\(messages)")
    }
  #endif

  @Test func missingFillsAnEmptyLiteralAndLeavesAWrongOne() throws {
    let path: StaticString = "record-missing.swift"
    write("assertMarbles(r, \"\")\nassertMarbles(r, \"-b|\")\n", to: path)
    let recorder = try Self.recorder("-(ab)|")
    let messages = issues {
      withMarbleRecording(.missing) {
        assertMarbles(recorder, "", filePath: path, line: 1, column: 14)
        assertMarbles(recorder, "-b|", filePath: path, line: 2, column: 14)
      }
    }
    #expect(read(path) == "assertMarbles(r, \"-(ab)|\")\nassertMarbles(r, \"-b|\")\n")
    #expect(messages.count == 3)
    #expect(messages.first?.hasPrefix("marbles differ") == true)
    #expect(messages.dropFirst().first?.hasPrefix("warning: recorded `-(ab)|`") == true)
    #expect(messages.last?.hasPrefix("marbles differ") == true)
  }

  /// A failure a `withKnownIssue` takes is meant to fail: its actual marble is the bug's, and
  /// record mode leaves the expectation alone. (On 2026-11-28's `main` it was rewritten.)
  @Test func aKnownIssueIsNotRecorded() throws {
    let path: StaticString = "record-known.swift"
    let recorder = try Self.recorder("--a|")
    let (file, messages) = recording(
      "assertMarbles(r, \"-a|\")\nassertMarbles(r, \"-b|\")\n", in: path, mode: .failed
    ) {
      withKnownIssue("the bug: the value comes a tick late") {
        assertMarbles(recorder, "-a|", filePath: path, line: 1, column: 14)
      }
      assertMarbles(recorder, "-b|", filePath: path, line: 2, column: 14)
    }
    #expect(file == "assertMarbles(r, \"-a|\")\nassertMarbles(r, \"--a|\")\n")
    #expect(messages.count == 3, "\(messages)")
    #expect(messages.filter { $0.hasPrefix("warning: recorded `--a|`") }.count == 1)
  }

  @Test func valuesAreWrittenThroughTheExpectationsOwnMap() throws {
    let path: StaticString = "record-values.swift"
    write(
      "scheduler.expect(numbers)\n  .toBe(\"\", values: [\"x\": 10, \"y\": 20])\n", to: path)
    let scheduler = TestScheduler()
    let numbers: TestSignal<Int, Never> = try scheduler.hot(
      "-1-2|", values: ["1": 10, "2": 20])
    _ = issues {
      withMarbleRecording(.failed) {
        scheduler.expect(numbers, filePath: path, line: 1, column: 17)
          .toBe("", values: ["x": 10, "y": 20])
        scheduler.flush()
      }
    }
    #expect(
      read(path)
        == "scheduler.expect(numbers)\n  .toBe(\"-x-y|\", values: [\"x\": 10, \"y\": 20])\n")
  }

  @Test func aValueWithNoKeyIsNotRecordedAndTheFailureSaysWhich() throws {
    let path: StaticString = "record-no-key.swift"
    let text = "assertMarbles(r, \"-x|\", values: [\"x\": 10])\n"
    write(text, to: path)
    let scheduler = TestScheduler()
    let numbers: TestSignal<Int, Never> = try scheduler.cold("-1-2|", values: ["1": 10, "2": 20])
    let recorder = scheduler.record(numbers)
    scheduler.run()
    let messages = issues {
      withMarbleRecording(.failed) {
        assertMarbles(recorder, "-x|", values: ["x": 10], filePath: path, line: 1, column: 14)
      }
    }
    #expect(read(path) == text)
    #expect(
      messages.last?.hasSuffix(
        "warning: not recorded (MARBLES_RECORD=failed): the value 20 at tick 3 has no key in values:"
      )
        == true)
  }

  @Test func aMarbleThatIsNotAStringLiteralIsNotRecorded() throws {
    let path: StaticString = "record-variable.swift"
    let text = "assertMarbles(r, expected)\n"
    let recorder = try Self.recorder("-a|")
    let (file, messages) = recording(text, in: path, mode: .failed) {
      assertMarbles(recorder, "--a|", filePath: path, line: 1, column: 14)
    }
    #expect(file == text)
    #expect(messages.last?.hasSuffix("the marble is not a string literal") == true)
  }

  @Test func subscriptionsAreRecorded() throws {
    let path: StaticString = "record-subscriptions.swift"
    write(
      "assertSubscriptions(fetch, \"^!\")\nscheduler.expectSubscriptions(fetch).toBe()\n", to: path)
    let scheduler = TestScheduler()
    let fetch = try scheduler.cold("--r|")
    _ = scheduler.record(fetch, subscribeAt: 1)
    _ = scheduler.record(fetch, subscribeAt: 2, disposeAt: 4)
    scheduler.run()
    _ = issues {
      withMarbleRecording(.failed) {
        assertSubscriptions(fetch, "^!", filePath: path, line: 1, column: 20)
      }
    }
    #expect(read(path).hasPrefix("assertSubscriptions(fetch, \"-^--!\", \"--^-!\")\n"))
  }

  @Test func neverRecordsNothing() throws {
    let path: StaticString = "record-never.swift"
    let text = "assertMarbles(r, \"\")\n"
    let recorder = try Self.recorder("-a|")
    let (file, messages) = recording(text, in: path, mode: .never) {
      assertMarbles(recorder, "", filePath: path, line: 1, column: 14)
    }
    #expect(file == text)
    #expect(messages.first?.contains("recorded") == false)
  }

  @Test func aTablesWrongRowsAreRecorded() throws {
    let path: StaticString = "record-table.swift"
    write(
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
    let messages = issues {
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
      read(path) == """
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
    #expect(messages.last?.hasSuffix("re-run without MARBLES_RECORD") == true)
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
    let path: StaticString = "record-trait.swift"
    write("assertMarbles(r, \"\")\n", to: path)
    let recorder = try Self.recorder("a|")
    _ = issues {
      assertMarbles(recorder, "", filePath: path, line: 1, column: 14)
    }
    #expect(read(path) == "assertMarbles(r, \"a|\")\n")
  }
}
