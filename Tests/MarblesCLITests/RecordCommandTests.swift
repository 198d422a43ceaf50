import Foundation
import Testing

/// `marbles --record PATH…`: the wrong `gets` and `subs` rows of failing scenarios are rewritten
/// in the fixture file — only their marbles — and the run still fails.
@Suite struct RecordCommandTests {
  static let wrong = """
    // Two scenarios with wrong rows, one right one between them.

    title: the subscriber gets a frame late
    pipeline: src | delay(1)

    src   cold  -a-b|
    sub1  gets  -a-b|
    src   subs  ^---!

    title: right as it is
    pipeline: src
    src   cold  -a|
    sub1  gets  -a|

    title: two subscribers, one subscription each
    pipeline: src

    src   cold  --x|
    sub1  sub   ^------
    sub1  gets  --x|
    sub2  sub   --^----
    sub2  gets  --x|
    src   subs  ^--!

    """

  static let recorded = """
    // Two scenarios with wrong rows, one right one between them.

    title: the subscriber gets a frame late
    pipeline: src | delay(1)

    src   cold  -a-b|
    sub1  gets  --a-b|
    src   subs  ^---!

    title: right as it is
    pipeline: src
    src   cold  -a|
    sub1  gets  -a|

    title: two subscribers, one subscription each
    pipeline: src

    src   cold  --x|
    sub1  sub   ^------
    sub1  gets  --x|
    sub2  sub   --^----
    sub2  gets  ----x|
    src   subs  ^--!
    src   subs  --^--!

    """

  @Test func recordRewritesTheWrongRowsAndExits1ThenTheFilePasses() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("marbles-record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("scenarios.marbles")
    try Self.wrong.write(to: file, atomically: true, encoding: .utf8)

    let recording = try await MarblesExecutable.run(["--record", file.path])
    #expect(recording.status == 1, "\(recording)")
    #expect(
      recording.stdout.contains(
        "recorded 'the subscriber gets a frame late', 'two subscribers, one subscription each' in "
          + "\(file.path); run again without --record"), "\(recording)")
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.recorded)

    let again = try await MarblesExecutable.run([file.path])
    #expect(again.status == 0, "\(again)")
    #expect(again.stdout.hasSuffix("3 passed, 0 failed\n"), "\(again)")
  }

  @Test func withoutRecordNothingIsWritten() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("marbles-record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("scenarios.marbles")
    try Self.wrong.write(to: file, atomically: true, encoding: .utf8)
    let output = try await MarblesExecutable.run([file.path])
    #expect(output.status == 1)
    #expect(try String(contentsOf: file, encoding: .utf8) == Self.wrong)
  }

  @Test func recordGoesWithRunNotShow() async throws {
    let output = try await MarblesExecutable.run(["show", "--record", "Fixtures"])
    #expect(output.status == 2)
    #expect(output.stderr.contains("'--record' writes what a run found, so it goes with 'run'"))
  }
}
