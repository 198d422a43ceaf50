import MarbleTesting
import TestSupport
import Testing

/// Record mode with several test processes writing into one file at once, as `swift test
/// --parallel` runs them: each finds its own call, also when another process moved its lines.
@Suite struct RecordingProcessesTests {
  /// Section `k` of the file, six lines: a table whose one `subs` row becomes two when recorded
  /// (a line more for every call below it), an empty literal, and a blank line.
  static func section(_ k: Int) -> String {
    [
      "assertTable(\"\"\"", "  src\(k) hot   -a|", "  src\(k) subs  ^",
      #"  """) { $0["src\#(k)"] }"#, #"assertMarbles(r, "")"#, "", "",
    ].joined(separator: "\n")
  }

  /// Section `k` once its process recorded it.
  static func recordedSection(_ k: Int) -> String {
    [
      "assertTable(\"\"\"", "  src\(k) hot   -a|", "  src\(k) subs  ^!", "  src\(k) subs  -^!",
      #"  """) { $0["src\#(k)"] }"#, #"assertMarbles(r, "-\#(k)|")"#, "", "",
    ].joined(separator: "\n")
  }

  static let processes = 3

  /// Three processes record into one file at once, five times: each expands its table (moving
  /// the lines of every call below it) and then fills its empty literal. Every literal gets its
  /// own process's marble. (On 2026-11-28's `main` a process mapped its calls through its own
  /// edits only: a call below another process's table was looked for a line too high, and its
  /// recording was refused or went into another call's empty literal.)
  @Test func threeProcessesRecordIntoEmptyLiteralsOfOneFile() async throws {
    let folder = makeScratchFolder("processes")
    defer { removeScratchFolder(folder) }
    let file = folder + "/Three.swift"
    for round in 1...5 {
      writeFile((0..<Self.processes).map(Self.section).joined(), to: file)
      let runs = try await withThrowingTaskGroup(of: (Int32, String).self) { group in
        for k in 0..<Self.processes {
          group.addTask {
            try await runTestsInAChildProcess(
              filter: "RecordingProcessesTests/recordsItsSection",
              environment: ["MARBLES_RECORDING_SECTION": "\(k)", "MARBLES_RECORDING_FILE": file])
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for (status, output) in runs {
        #expect(status == 0, "round \(round): a recording process failed:\n\(output)")
      }
      #expect(
        readFile(file) == (0..<Self.processes).map(Self.recordedSection).joined(),
        "round \(round)")
    }
  }

  /// Run by ``threeProcessesRecordIntoEmptyLiteralsOfOneFile()`` in processes of its own (it does
  /// nothing in the suite's own run): records section `MARBLES_RECORDING_SECTION` of
  /// `MARBLES_RECORDING_FILE`, at the lines and columns the file was written with.
  @Test func recordsItsSection() throws {
    guard let section = Platform.environment("MARBLES_RECORDING_SECTION").flatMap({ Int($0) }),
      let file = Platform.environment("MARBLES_RECORDING_FILE")
    else { return }
    let tableLine = 6 * section + 1
    let recordedTable = try SourceRecorder.record(
      [], replacing: ["src\(section) hot   -a|\nsrc\(section) subs  ^"],
      at: .table([
        .subscriptions(label: "src\(section)", lines: [2], marbles: ["^!", "-^!"])
      ]),
      onlyIfEmpty: false, path: file, line: tableLine, column: 12)
    let recordedLiteral = try SourceRecorder.record(
      ["-\(section)|"], replacing: [""], at: .argument(1), onlyIfEmpty: true, path: file,
      line: tableLine + 4, column: 14)
    #expect(recordedTable && recordedLiteral)
  }
}
