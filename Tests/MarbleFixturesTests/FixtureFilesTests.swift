import Foundation
import MarbleFixtures
import Testing

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Every `*.marbles` file under `Fixtures/`, relative to the package root, sorted.
let fixturePaths: [String] = {
  let folder = packageRoot.appendingPathComponent("Fixtures")
  let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
  return names.filter { $0.hasSuffix(".marbles") }.sorted().map { "Fixtures/\($0)" }
}()

/// `swift test` runs every fixture as its own test case, so a failure names the file.
@Suite struct FixtureFilesTests {
  @Test func theFixturesFolderHoldsEverySeedStoryAndTheEdgeCases() {
    #expect(fixturePaths.count >= 16, "found \(fixturePaths)")
    #expect(fixturePaths.filter { $0.contains("/seed") }.count >= 10)
    #expect(fixturePaths.filter { $0.contains("/edge-") }.count >= 5)
  }

  @Test(arguments: fixturePaths)
  func fixture(_ path: String) throws {
    let text = try String(
      contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    let file: FixtureFile
    do {
      file = try Fixtures.parse(text, path: path)
    } catch {
      Issue.record("\(error)")
      return
    }
    for scenario in file.scenarios {
      do {
        let result = try Fixtures.run(scenario)
        #expect(result.passed, "\(path): \(scenario.title)\n\(result.text)")
        if !result.passed {
          // The picture, saved with the test's attachments (`swift test --attachments-path DIR`).
          Attachment.record(result.svg, named: "\(scenario.title) — expected vs actual.svg")
        }
      } catch {
        Issue.record("\(error)")
      }
    }
  }
}
