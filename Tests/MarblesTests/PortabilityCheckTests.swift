import Foundation
import TestSupport
import Testing

/// `make check-portability` (scripts/check-portability.swift) run on a package tree made for the
/// test: each kind of offender is named at its place, and what is allowed is not.
@Suite struct PortabilityCheckTests {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  @Test func everyKindOfOffenderIsNamedAndNothingElse() async throws {
    let root = makeScratchFolder("portability")
    defer { removeScratchFolder(root) }
    makeFolders(root + "/Sources/Module")
    makeFolders(root + "/Sources/CShim")
    makeFolders(root + "/Tests/ModuleTests")
    writeFile(
      """
      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Darwin)
        import Darwin
      #endif

      func pid() -> Int32 { Glibc.getpid() }
      func thread() -> Int { Int(gettid()) }
      func start() { Task.immediate {} }

      """, to: root + "/Sources/Module/Offending.swift")
    writeFile(
      """
      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Musl)
        import Musl
      #elseif canImport(Darwin)
        import Darwin
      #endif

      // Glibc.read in a comment, and a call by its plain name, are fine.
      func pid() -> Int32 { getpid() }

      @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
      func start(
        _ name: String
      ) {
        if name.isEmpty {
          Task.immediate {}
        }
      }

      """, to: root + "/Sources/Module/Allowed.swift")
    writeFile(
      """
      #if canImport(Glibc)
        import Glibc
        func thread() -> pthread_t { pthread_self() }
      #endif

      """, to: root + "/Sources/Module/Platform.swift")
    writeFile(
      "#if defined(__linux__)\n#include <dlfcn.h>\n#endif\n", to: root + "/Sources/CShim/shim.c")
    writeFile(
      "@Test func observe() async { _ = Observations { 1 } }\n",
      to: root + "/Tests/ModuleTests/ObservingTests.swift")
    let (status, output) = try await runTool([
      "swift", Self.packageRoot + "/scripts/check-portability.swift", root,
    ])
    #expect(status == 1)
    let needs26 =
      "needs macOS 26, but the manifest says macOS 15: mark the declaration "
      + "@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)"
    #expect(
      output.split(separator: "\n").map(String.init) == [
        "check-portability: 9 offenders",
        "Sources/Module/Offending.swift: imports Glibc, Darwin but not Musl under "
          + "#if canImport(Musl)",
        "Sources/Module/Offending.swift:7: a name qualified by Glibc — spell it alike everywhere",
        "Sources/Module/Offending.swift:8: gettid belongs in the module's Platform.swift",
        "Sources/Module/Offending.swift:9: Task.immediate \(needs26)",
        "Sources/Module/Platform.swift: imports Glibc but not Musl under #if canImport(Musl)",
        "Sources/Module/Platform.swift: imports Glibc but not Darwin under #if canImport(Darwin)",
        "Sources/Module/Platform.swift: a Linux branch without a Darwin twin",
        "Tests/ModuleTests/ObservingTests.swift:1: Observations { \(needs26)",
        "Sources/CShim/shim.c: a Linux branch without a Darwin (__APPLE__) twin",
      ], "\(output)")
  }
}
