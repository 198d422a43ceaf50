import Foundation
import TestSupport
import Testing

/// Every code listing of the DocC articles and the README is code a test compiles and runs.
///
/// The rules (also in the Marbles catalog's landing page, for authors):
/// - A ```` ```swift ```` listing is preceded by `<!-- snippet: NAME -->` and is, line for line,
///   the region of a test file between `// snippet: NAME` and `// snippet-end` (indentation shared
///   by the whole region removed). The region is in a test that runs: under `Tests/`, or under
///   `Integrations/Tests/` for code that needs swift-async-algorithms or OpenCombine.
/// - A listing from `Integrations/` is the OpenCombine build of Combine code: the article says
///   `import Combine` and `import MarblesCombine` where the test says `import OpenCombine` (or
///   `import OpenCombineShim`) and `import MarblesOpenCombine`, and nothing else differs.
/// - A listing of another language (`text`, `sh`) may quote a region the same way, for a failure
///   message a test checks: the region's opening and closing `"""` lines are left out.
/// - A ```` ```swift ```` listing preceded by `<!-- manifest -->` is a whole `Package.swift`, which
///   `swift package dump-package` must read.
/// - Every Swift listing compiles when pasted into a test file of a target with the README's
///   manifest (`import Marbles`, `MarbleTesting`, `Signals` and `Testing` at its top): what else it
///   needs is in the listing itself — its other imports included — or in the article's helper
///   file, a listing whose name ends in `.swift` (`<!-- snippet: ExampleApp.swift -->`), which is
///   the whole test file of that name and is compiled beside each listing of its article. A
///   listing is compiled as a file, and where that fails as the body of a `@MainActor` `async
///   throws` function (a test's statements); a name defined only elsewhere in the test file fails.
@Suite struct ArticleListingsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  struct Listing: CustomTestStringConvertible {
    var file: String
    var line: Int
    var marker: String?
    var language: String
    var lines: [String]
    var testDescription: String { "\(file):\(line)" }
  }

  /// The articles of every catalog, and the README.
  static let documents: [String] = {
    var paths = ["README.md"]
    let sources = root.appendingPathComponent("Sources")
    for module in (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [] {
      let catalog = "Sources/\(module)/\(module).docc"
      let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(catalog).path)
      while let file = files?.nextObject() as? String {
        if file.hasSuffix(".md") { paths.append("\(catalog)/\(file)") }
      }
    }
    return paths.sorted()
  }()

  static func listings(in path: String) -> [Listing] {
    guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    else { return [] }
    let lines = text.components(separatedBy: "\n")
    var listings: [Listing] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      guard line.hasPrefix("```"), line.count > 3 else {
        index += 1
        continue
      }
      let language = String(line.dropFirst(3))
      var marker: String?
      if index > 0 {
        let previous = lines[index - 1].trimmingCharacters(in: .whitespaces)
        if previous.hasPrefix("<!--"), previous.hasSuffix("-->") {
          marker = previous.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
        }
      }
      var end = index + 1
      while end < lines.count, lines[end] != "```" { end += 1 }
      listings.append(
        Listing(
          file: path, line: index + 1, marker: marker, language: language,
          lines: Array(lines[(index + 1)..<min(end, lines.count)])))
      index = end + 1
    }
    return listings
  }

  static let allListings = documents.flatMap(listings(in:))

  /// Every region `// snippet: NAME` … `// snippet-end` of the test files, by name.
  static let regions: [String: (file: String, lines: [String])] = {
    var found: [String: (file: String, lines: [String])] = [:]
    for folder in ["Tests", "Integrations/Tests"] {
      let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
      while let file = files?.nextObject() as? String {
        guard file.hasSuffix(".swift"), !file.contains("/Fixtures/") else { continue }
        let path = "\(folder)/\(file)"
        guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
        else { continue }
        var name: String?
        var lines: [String] = []
        for line in text.components(separatedBy: "\n") {
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          if trimmed.hasPrefix("// snippet: ") {
            name = String(trimmed.dropFirst("// snippet: ".count))
            lines = []
          } else if trimmed == "// snippet-end", let current = name {
            found[current] = (path, lines)
            name = nil
          } else if name != nil {
            lines.append(line)
          }
        }
      }
    }
    return found
  }()

  static func dedented(_ lines: [String]) -> [String] {
    let indents = lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .map { $0.prefix(while: { $0 == " " }).count }
    let common = indents.min() ?? 0
    return lines.map { $0.count >= common ? String($0.dropFirst(common)) : "" }
  }

  /// The imports of the OpenCombine build, and the Combine imports an article shows for them:
  /// whole lines, so nothing else in a listing can change.
  static let combineImports = [
    "import OpenCombine": "import Combine",
    "import OpenCombineShim": "import Combine",
    "import MarblesOpenCombine": "import MarblesCombine",
  ]

  static func fromIntegrations(_ line: String) -> String {
    combineImports[line] ?? line
  }

  @Test func integrationsImportsReadAsTheCombineImportsTheArticlesShow() async {
    #expect(Self.fromIntegrations("import OpenCombine") == "import Combine")
    #expect(Self.fromIntegrations("import OpenCombineShim") == "import Combine")
    #expect(Self.fromIntegrations("import MarblesOpenCombine") == "import MarblesCombine")
    #expect(Self.fromIntegrations("  import OpenCombineShim") == "  import OpenCombineShim")
    #expect(
      Self.fromIntegrations("let x = 1  // import OpenCombine")
        == "let x = 1  // import OpenCombine")
  }

  @Test func theDocumentsAreFound() async {
    #expect(Self.documents.count >= 10, "\(Self.documents)")
    #expect(Self.allListings.count >= 20)
  }

  @Test(arguments: allListings.filter { $0.language == "swift" })
  func everySwiftListingIsCompiledByATest(_ listing: Listing) async {
    let marker = listing.marker ?? ""
    #expect(
      marker.hasPrefix("snippet: ") || marker == "manifest",
      "\(listing.file):\(listing.line): a Swift listing needs <!-- snippet: NAME --> or <!-- manifest -->"
    )
  }

  @Test(arguments: allListings.filter { $0.marker?.hasPrefix("snippet: ") == true })
  func everySnippetIsItsRegion(_ listing: Listing) async throws {
    let name = String(listing.marker!.dropFirst("snippet: ".count))
    let region = try #require(
      Self.regions[name], "\(listing.file):\(listing.line): no test region `// snippet: \(name)`")
    var expected = Self.dedented(region.lines)
    if listing.language != "swift",
      expected.first?.trimmingCharacters(in: .whitespaces) == "\"\"\"",
      expected.last?.trimmingCharacters(in: .whitespaces) == "\"\"\""
    {
      expected = Self.dedented(Array(expected.dropFirst().dropLast()))
    }
    // A region from Integrations/ reads as Apple's Combine, unless it is a Linux listing.
    if region.file.hasPrefix("Integrations/"), !name.hasPrefix("linux-") {
      expected = expected.map(Self.fromIntegrations)
    }
    #expect(
      listing.lines == expected,
      "\(listing.file):\(listing.line) differs from `\(name)` in \(region.file)")
  }

  /// The snippet name of a listing, if it has one.
  static func snippetName(_ listing: Listing) -> String? {
    guard let marker = listing.marker, marker.hasPrefix("snippet: ") else { return nil }
    return String(marker.dropFirst("snippet: ".count))
  }

  /// The Swift listings a pasted test file compiles, but helper files (compiled beside them):
  /// those whose regions are the root package's, or the Integrations package's (Combine on
  /// OpenCombine there, swift-async-algorithms, the ports of combine-schedulers and swift-clocks).
  static func compiledListings(fromIntegrations: Bool) -> [Listing] {
    allListings.filter { listing in
      guard listing.language == "swift", let name = snippetName(listing),
        let region = regions[name]
      else { return false }
      return region.file.hasPrefix("Integrations/") == fromIntegrations
        && !name.hasSuffix(".swift")
    }
  }

  /// The helper file of `document`, if it shows one: its name and its text.
  static func helper(of document: String) -> (name: String, lines: [String])? {
    for listing in listings(in: document) where listing.language == "swift" {
      if let name = snippetName(listing), name.hasSuffix(".swift") { return (name, listing.lines) }
    }
    return nil
  }

  /// The imports a test file of a target with the README's manifest starts with.
  static let testFileImports = [
    "import Marbles", "import MarbleTesting", "import Signals", "import Testing",
  ]

  @Test(arguments: allListings.filter { snippetName($0)?.hasSuffix(".swift") == true })
  func aHelperFileIsShownInFull(_ listing: Listing) async throws {
    let name = try #require(Self.snippetName(listing))
    let region = try #require(Self.regions[name])
    #expect(
      region.file.hasSuffix("/" + name),
      "\(listing.file):\(listing.line): helper `\(name)` is a region of \(region.file)")
    let text = try String(
      contentsOf: Self.root.appendingPathComponent(region.file), encoding: .utf8)
    let whole = text.components(separatedBy: "\n").filter {
      let trimmed = $0.trimmingCharacters(in: .whitespaces)
      return !trimmed.hasPrefix("// snippet: ") && trimmed != "// snippet-end"
    }
    #expect(
      Self.dedented(region.lines).joined(separator: "\n").trimmingCharacters(in: .newlines)
        == whole.joined(separator: "\n").trimmingCharacters(in: .newlines),
      "\(listing.file):\(listing.line): helper `\(name)` is not the whole of \(region.file)")
  }

  @Test(arguments: compiledListings(fromIntegrations: false))
  func everySwiftListingCompilesPastedIntoATestFile(_ listing: Listing) async throws {
    try await Self.compile(listing, build: BuildFolder.current) { $0 }
  }

  /// The Integrations package's build folder, which `make test` names after that package's tests
  /// ran (`MARBLES_INTEGRATIONS_BUILD`).
  static let integrationsBuild = ProcessInfo.processInfo.environment["MARBLES_INTEGRATIONS_BUILD"]

  /// What an article's Combine imports are in the Integrations package's build.
  static func toIntegrations(_ line: String) -> String {
    switch line {
    case "import Combine": "import OpenCombineShim"
    case "import MarblesCombine": "import MarblesOpenCombine"
    default: line
    }
  }

  @Test(
    .enabled(
      if: integrationsBuild != nil,
      "needs the Integrations package's build: `make test` runs it after that package's tests"),
    arguments: compiledListings(fromIntegrations: true))
  func everyIntegrationsListingCompilesPastedIntoATestFile(_ listing: Listing) async throws {
    let build = URL(fileURLWithPath: try #require(Self.integrationsBuild))
    try await Self.compile(listing, build: build, translating: Self.toIntegrations)
  }

  /// Type-checks `listing` pasted into a test file, beside its article's helper file: as a file,
  /// else as a `@MainActor` test's statements; records the compiler's errors when neither builds.
  static func compile(
    _ listing: Listing, build: URL, translating translate: (String) -> String
  ) async throws {
    let lines = listing.lines.map(translate)
    let imports = lines.filter { $0.hasPrefix("import ") }
    let rest = lines.filter { !$0.hasPrefix("import ") }
    var helperFiles: [(name: String, source: String)] = []
    if let helper = Self.helper(of: listing.file) {
      helperFiles.append((helper.name, helper.lines.map(translate).joined(separator: "\n") + "\n"))
    }
    let header = (Self.testFileImports + imports).joined(separator: "\n") + "\n"
    let asFile = header + rest.joined(separator: "\n") + "\n"
    let (fileStatus, fileOutput) = try await typecheck(
      [("Listing.swift", asFile)] + helperFiles, build: build)
    guard fileStatus != 0 else { return }
    let asBody =
      header + "@MainActor func listing() async throws {\n" + rest.joined(separator: "\n") + "\n}\n"
    let (bodyStatus, bodyOutput) = try await typecheck(
      [("Listing.swift", asBody)] + helperFiles, build: build)
    guard bodyStatus != 0 else { return }
    Issue.record(
      """
      \(listing.file):\(listing.line) does not compile pasted into a test file.
      As a file:
      \(fileOutput)
      As a test's statements:
      \(bodyOutput)
      """)
  }

  @Test(arguments: allListings.filter { $0.marker == "manifest" })
  func everyManifestIsRead(_ listing: Listing) async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("marbles-manifest-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try listing.lines.joined(separator: "\n").write(
      to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
    let (status, text) = try await runTool([
      "swift", "package", "--package-path", folder.path, "dump-package",
    ])
    #expect(status == 0, "\(listing.file):\(listing.line): \(text)")
    #expect(text.contains("\"Marbles\""), "\(listing.file):\(listing.line): \(text)")
  }
}
