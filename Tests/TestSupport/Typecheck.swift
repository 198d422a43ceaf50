public import Foundation

/// Swift source type-checked against the modules this test run was built with, the way a user's
/// test target that depends on Marbles compiles it: `swiftc -typecheck` in Swift 6 language mode,
/// the build's `Modules` folder on the import path and the C runtime's module map given.
///
/// - Parameters:
///   - files: Each file's name and source: one module, as a test target's files are.
///   - build: The build folder whose modules it imports: this test run's, or another package's
///     (the Integrations package's, for its OpenCombine and swift-async-algorithms modules).
/// - Returns: The compiler's exit status and its diagnostics.
public func typecheck(_ files: [(name: String, source: String)], build: URL = BuildFolder.current)
  async throws -> (status: Int32, output: String)
{
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("marbles-typecheck-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  var paths: [String] = []
  for file in files {
    let url = folder.appendingPathComponent(file.name)
    try file.source.write(to: url, atomically: true, encoding: .utf8)
    paths.append(url.path)
  }
  // The C modules' maps: each C target's, which SwiftPM writes into its build folder.
  let targets = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
  let maps = targets.filter { $0.hasSuffix(".build") }.map {
    build.appendingPathComponent($0).appendingPathComponent("module.modulemap").path
  }.filter { FileManager.default.fileExists(atPath: $0) }.sorted()
  let result = try await runTool(
    ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "ListingCheck"]
      + ["-I", build.appendingPathComponent("Modules").path]
      + maps.flatMap { ["-Xcc", "-fmodule-map-file=" + $0] } + paths)
  // Diagnostics name the files by their temporary paths: by their names instead.
  return (result.status, result.output.replacingOccurrences(of: folder.path + "/", with: ""))
}

/// The folder this test binary was built into (`.build/debug`, or a sanitizer build's).
public enum BuildFolder {
  /// This test run's build folder.
  public static let current: URL = {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    // Linux: `.build/debug/MarblesPackageTests.xctest` is the executable; Darwin (written for,
    // not run here): `….xctest/Contents/MacOS/…` inside the bundle.
    var folder = executable.deletingLastPathComponent()
    while folder.path != "/",
      !FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("Modules").path)
    {
      folder = folder.deletingLastPathComponent()
    }
    return folder
  }()
}
