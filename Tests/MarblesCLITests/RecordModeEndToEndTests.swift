import Foundation
import Testing

/// Record mode end to end, as a user runs it: a scratch package whose tests have wrong and empty
/// expectations is run with `MARBLES_RECORD=missing`, then `failed`, then plainly. The file ends
/// as the golden text below, the first two runs fail, and the last passes.
///
/// It builds the scratch package (and Marbles with it) in `.build/record-mode-end-to-end`, so a
/// second run of the suite builds almost nothing.
@Suite struct RecordModeEndToEndTests {
  static let tests = #"""
    import MarbleTesting
    import Marbles
    import Testing

    @Test func expectations() async throws {
      let scheduler = TestScheduler()
      let input = try scheduler.hot("-a-b-|")
      scheduler.expect(input.map { $0.uppercased() })
        .toBe("")
      scheduler.expect(input, subscription: "^--!").toBe("-a-b|")
      let recorder = scheduler.record(input)
      scheduler.flush()
      assertMarbles(recorder, #""#)
      assertSubscriptions(input, "^")
    }

    @Test func aTable() async {
      assertTable(
        """
        src  hot   -a-b|
        out  gets  -
        src  subs  ^
        """
      ) { $0["src"].map { $0.uppercased() } }
    }

    @Test func notALiteral() async throws {
      let scheduler = TestScheduler()
      let recorder = scheduler.record(try scheduler.cold("-a|"))
      scheduler.run()
      let expected = "-b|"
      assertMarbles(recorder, expected)
    }

    """#

  static let golden = #"""
    import MarbleTesting
    import Marbles
    import Testing

    @Test func expectations() async throws {
      let scheduler = TestScheduler()
      let input = try scheduler.hot("-a-b-|")
      scheduler.expect(input.map { $0.uppercased() })
        .toBe("-A-B-|")
      scheduler.expect(input, subscription: "^--!").toBe("-a")
      let recorder = scheduler.record(input)
      scheduler.flush()
      assertMarbles(recorder, #"-a-b-|"#)
      assertSubscriptions(input, "^----!", "^--!", "^----!")
    }

    @Test func aTable() async {
      assertTable(
        """
        src  hot   -a-b|
        out  gets  -A-B|
        src  subs  ^---!
        """
      ) { $0["src"].map { $0.uppercased() } }
    }

    @Test func notALiteral() async throws {
      let scheduler = TestScheduler()
      let recorder = scheduler.record(try scheduler.cold("-a|"))
      scheduler.run()
      let expected = "-a|"
      assertMarbles(recorder, expected)
    }

    """#

  @Test func missingThenFailedThenAPlainRunThatPasses() async throws {
    let root = MarblesExecutable.packageRoot
    let package = FileManager.default.temporaryDirectory
      .appendingPathComponent("marbles-record-e2e-\(UUID().uuidString)")
    let testsFolder = package.appendingPathComponent("Tests/RecordedTests")
    try FileManager.default.createDirectory(at: testsFolder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: package) }
    try """
    // swift-tools-version: 6.0
    import PackageDescription

    let package = Package(
      name: "Recorded",
      platforms: [.macOS(.v15)],
      dependencies: [.package(name: "Marbles", path: "\(root.path)")],
      targets: [
        .testTarget(
          name: "RecordedTests",
          dependencies: [
            .product(name: "Marbles", package: "Marbles"),
            .product(name: "MarbleTesting", package: "Marbles"),
          ])
      ]
    )

    """.write(
      to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let file = testsFolder.appendingPathComponent("RecordedTests.swift")
    try Self.tests.write(to: file, atomically: true, encoding: .utf8)

    let scratch = root.appendingPathComponent(".build/record-mode-end-to-end").path
    func text() throws -> String { try String(contentsOf: file, encoding: .utf8) }

    // `env swift test …`: the toolchain's `swift`, found on the PATH as a user's would be.
    let missing = try await MarblesExecutable.run(
      ["swift", "test", "--package-path", package.path, "--scratch-path", scratch],
      environment: ["MARBLES_RECORD": "missing"], program: URL(fileURLWithPath: "/usr/bin/env"),
      directory: package, timeLimit: .seconds(1_200))
    #expect(missing.status != 0, "a recording run fails: \(missing)")
    #expect(missing.stdout.contains("recorded `-A-B-|` at RecordedTests/RecordedTests.swift:8"))
    let afterMissing = try text()
    #expect(afterMissing.contains(".toBe(\"-A-B-|\")"), "\(afterMissing)")
    #expect(afterMissing.contains("assertMarbles(recorder, #\"-a-b-|\"#)"))
    #expect(afterMissing.contains(".toBe(\"-a-b|\")"), "missing leaves a wrong literal")

    let failed = try await MarblesExecutable.run(
      ["swift", "test", "--package-path", package.path, "--scratch-path", scratch],
      environment: ["MARBLES_RECORD": "failed"], program: URL(fileURLWithPath: "/usr/bin/env"),
      directory: package, timeLimit: .seconds(1_200))
    #expect(failed.status != 0, "\(failed)")
    #expect(failed.stdout.contains("is not a string literal"), "\(failed)")
    #expect(
      try text()
        == Self.golden.replacingOccurrences(
          of: "let expected = \"-a|\"", with: "let expected = \"-b|\""))

    // The variable is the test's to fix by hand; then a plain run passes and writes nothing.
    try text().replacingOccurrences(of: "let expected = \"-b|\"", with: "let expected = \"-a|\"")
      .write(to: file, atomically: true, encoding: .utf8)
    let plain = try await MarblesExecutable.run(
      ["swift", "test", "--package-path", package.path, "--scratch-path", scratch],
      environment: ["MARBLES_RECORD": nil], program: URL(fileURLWithPath: "/usr/bin/env"),
      directory: package, timeLimit: .seconds(1_200))
    #expect(plain.status == 0, "\(plain)")
    let final = try text()
    #expect(final == Self.golden, "\(final)")
  }
}
