import Foundation
import TestSupport
import Testing

/// Failing assertions attach a picture of expected against actual, which Swift Testing saves with
/// `--attachments-path`. Checked by running this test binary on tests that fail on purpose (inside
/// `withKnownIssue`) and reading what it saved.
@Suite struct AttachmentsTests {
  func attachments(ofTestsMatching filter: String) async throws -> [String: String] {
    try await offThePool { try Self.attachmentsBlocking(ofTestsMatching: filter) }
  }

  static func attachmentsBlocking(ofTestsMatching filter: String) throws -> [String: String] {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("marbles-attachments-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = [
      "--testing-library", "swift-testing", "--filter", filter, "--attachments-path", folder.path,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    var files: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      files[name] = try String(
        contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }
    return files
  }

  @Test func aFailingAssertMarblesAttachesItsPictureNamedAfterTheTest() async throws {
    let files = try await attachments(
      ofTestsMatching: "aFailingAssertionOnANeverFailingRecorderShowsTheMarbles")
    let svg = try #require(
      files["aFailingAssertionOnANeverFailingRecorderShowsTheMarbles-expected-vs-actual.svg"],
      "saved: \(files.keys.sorted())")
    #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
    #expect(svg.contains(">first difference: frame 3<"))
  }

  @Test func failingExpectationsAndTablesAttachTheirPictures() async throws {
    let files = try await attachments(
      ofTestsMatching:
        "everyFailingExpectationIsReportedAtItsOwnLine|aWrongRowIsReprintedWithWhatHappenedACaretAndASentence"
    )
    let names = files.keys.sorted()
    // Two failing expectations in one test: two pictures (Swift Testing numbers the second).
    #expect(
      names.filter { $0.hasPrefix("everyFailingExpectationIsReportedAtItsOwnLine") }.count == 2,
      "saved: \(names)")
    let table = try #require(
      files.first { $0.key.hasPrefix("aWrongRowIsReprintedWithWhatHappenedACaretAndASentence") }?
        .value, "saved: \(names)")
    #expect(table.contains(">sub2 (was)<") && table.contains(">fetch subs (was)<"))
  }
}
