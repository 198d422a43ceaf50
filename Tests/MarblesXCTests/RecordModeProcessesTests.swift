import Foundation
import MarbleTesting
import Marbles
import TestSupport
import XCTest

/// Several test processes recording into one source file at once, as `swift test --parallel`
/// runs XCTest cases: every edit lands and the file still compiles.
extension XCTestPathTests {
  /// The file the processes share: a type-checkable stand-in for a test file, with
  /// `callsPerProcess` calls per process, each with an empty marble.
  private static func sharedFile(processes: Int, callsPerProcess: Int) -> String {
    let calls = (0..<processes * callsPerProcess).map { _ in "  assertMarbles(recorder, \"\")" }
    return "func assertMarbles(_ recorder: Int, _ marbles: String) {}\nlet recorder = 0\n"
      + "func check() {\n" + calls.joined(separator: "\n") + "\n}\n"
  }

  /// The line of call `index` in ``sharedFile(processes:callsPerProcess:)``.
  private static func line(ofCall index: Int) -> Int { index + 4 }

  /// The marble recorded at call `index` (below 36): one of its own.
  private static func marble(ofCall index: Int) -> String {
    let names = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    return "-\(names[index])|"
  }

  /// One process's share: records calls `first`, `first + step`, … below `end` of the shared file
  /// in `MARBLES_RECORDING_FOLDER` (run by the test below); run alone, it records every call of a
  /// file of its own and checks the result.
  func testOneProcessRecordsItsCallsIntoTheSharedFile() throws {
    let environment = ProcessInfo.processInfo.environment
    let shared = environment["MARBLES_RECORDING_FOLDER"]
    let folder = shared ?? makeScratchFolder("record-processes")
    defer { if shared == nil { removeScratchFolder(folder) } }
    if shared == nil {
      writeFile(Self.sharedFile(processes: 1, callsPerProcess: 5), to: folder + "/Shared.swift")
    }
    let first = Int(environment["MARBLES_RECORDING_FIRST"] ?? "0")!
    let step = Int(environment["MARBLES_RECORDING_STEP"] ?? "1")!
    let end = Int(environment["MARBLES_RECORDING_END"] ?? "5")!
    for index in stride(from: first, to: end, by: step) {
      let scheduler = TestScheduler()
      let recorder = scheduler.record(try scheduler.cold(Self.marble(ofCall: index)))
      scheduler.run()
      let failures = capture {
        SourceRecorder.$folder.withValue(folder) {
          withMarbleRecording(.failed) {
            assertMarbles(
              recorder, "", filePath: "Shared.swift", line: UInt(Self.line(ofCall: index)),
              column: 16)
          }
        }
      }
      XCTAssertEqual(failures.count, 1)
      XCTAssertTrue(
        failures.first?.description.hasSuffix(
          "recorded `\(Self.marble(ofCall: index))` at MarblesXCTests/RecordModeProcessesTests"
            + ".swift:\(Self.line(ofCall: index)); re-run without MARBLES_RECORD") == true,
        failures.first?.description ?? "no failure")
    }
    if shared == nil {
      XCTAssertEqual(
        readFile(folder + "/Shared.swift"),
        Self.recordedFile(Self.sharedFile(processes: 1, callsPerProcess: 5)))
    }
  }

  /// `file` with every call's marble recorded.
  private static func recordedFile(_ file: String) -> String {
    var index = 0
    return file.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      guard line == "  assertMarbles(recorder, \"\")" else { return String(line) }
      defer { index += 1 }
      return "  assertMarbles(recorder, \"\(marble(ofCall: index))\")"
    }.joined(separator: "\n")
  }

  /// The test bundle's executable and the arguments that run one of its XCTest cases.
  static func command(running test: String) -> [String] {
    #if canImport(Darwin)
      // Written for Darwin, not built here: Xcode's runner loads the bundle.
      ["xcrun", "xctest", "-XCTest", test, Bundle(for: XCTestPathTests.self).bundlePath]
    #else
      // On Linux the bundle is an executable that takes the case to run.
      [URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path, test]
    #endif
  }

  func testThreeProcessesRecordingIntoOneFileAtOnceAllLand() throws {
    let processes = 3
    let callsPerProcess = 12
    for run in 1...5 {
      let folder = makeScratchFolder("record-processes")
      defer { removeScratchFolder(folder) }
      let file = Self.sharedFile(processes: processes, callsPerProcess: callsPerProcess)
      writeFile(file, to: folder + "/Shared.swift")
      let started = try (0..<processes).map { process in
        try startTool(
          Self.command(
            running: "MarblesXCTests.XCTestPathTests/testOneProcessRecordsItsCallsIntoTheSharedFile"
          ),
          environment: [
            "MARBLES_RECORDING_FOLDER": folder, "MARBLES_RECORDING_FIRST": "\(process)",
            "MARBLES_RECORDING_STEP": "\(processes)",
            "MARBLES_RECORDING_END": "\(processes * callsPerProcess)",
          ])
      }
      for (process, tool) in started.enumerated() {
        let (status, output) = tool.finish()
        XCTAssertEqual(status, 0, "run \(run), process \(process):\n\(output)")
      }
      XCTAssertEqual(readFile(folder + "/Shared.swift"), Self.recordedFile(file), "run \(run)")
      XCTAssertEqual(filesIn(folder), ["Shared.swift"], "run \(run): a temporary file is left")
      let (status, output) = try runToolBlocking(["swiftc", "-typecheck", folder + "/Shared.swift"])
      XCTAssertEqual(status, 0, "run \(run): the recorded file does not compile:\n\(output)")
    }
  }
}
