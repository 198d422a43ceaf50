import Foundation
import TestSupport
import Testing

/// Turbine's step names point to Marbles' own: code written with them does not compile, and the
/// compiler says what to write instead, with a fix-it. Checked by type-checking such code against
/// the modules this test binary was built with (found from friction: "value of type
/// 'TestSubscriber<…>' has no member 'awaitItem'").
@Suite struct TurbineNamesTests {
  @Test func eachTurbineNameIsRenamedToOurs() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("marbles-turbine-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("Ported.swift")
    try """
    import MarbleTesting
    import Marbles

    func ported(_ scheduler: TestScheduler) throws {
      let results = scheduler.record(try scheduler.cold("-a-b-c|"))
      _ = results.awaitItem()
      _ = results.awaitEvent()
      results.skipItems(1)
      results.awaitComplete()
      _ = results.awaitError()
    }
    """.write(to: source, atomically: true, encoding: .utf8)
    // The build folder: its Modules, and the module map of the C module they import.
    let build = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let modules = build.appendingPathComponent("Modules")
    let runtimeMap = build.appendingPathComponent("CMarbleRuntime.build/module.modulemap")
    let (status, text) = try await runTool([
      "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
      "-Xcc", "-fmodule-map-file=\(runtimeMap.path)", source.path,
    ])
    #expect(status != 0)
    for (theirs, ours) in [
      ("awaitItem()", "nextValue()"), ("awaitEvent()", "nextEvent()"),
      ("skipItems", "skip(_:)"),
      ("awaitComplete()", "expectCompletion()"), ("awaitError()", "expectFailure()"),
    ] {
      #expect(
        text.contains("error: '\(theirs)' has been renamed to '\(ours)'"),
        "no rename from \(theirs) to \(ours) in:\n\(text)")
    }
    #expect(!text.contains("has no member"), "\(text)")
  }
}
