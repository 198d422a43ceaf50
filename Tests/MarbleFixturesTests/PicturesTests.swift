import Foundation
import MarbleFixtures
import MarbleTesting
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Fixture pictures: golden files for a few scenarios, and the HTML report of `Fixtures/`.
@Suite struct PicturesTests {
  static let golden = packageRoot.appendingPathComponent("Tests/MarbleFixturesTests/Golden")

  /// The scenarios drawn as golden files: a file, a scenario title, the golden file's name.
  static let goldenScenarios = [
    (
      "Fixtures/seed004-six-requests.marbles",
      "with replayLazily — one subscription, one request, shared by all six",
      "seed004-replayLazily.svg"
    ),
    ("Fixtures/seed002-autoconnect.marbles", nil, "seed002-autoconnect.svg"),
    ("Fixtures/edge-delay.marbles", nil, "edge-delay.svg"),
    ("Tests/MarblesCLITests/Fixtures/failing-expectation.marbles", nil, "failing-expectation.svg"),
  ]

  func scenario(_ path: String, titled title: String?) throws -> Scenario {
    let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
    let file = try Fixtures.parse(text, path: path)
    return try #require(
      title.map { title in file.scenarios.first { $0.title == title } } ?? file.scenarios.first)
  }

  /// Set `MARBLES_RECORD_GOLDEN=1` to write the golden files anew (then look at them, and commit).
  @Test(arguments: goldenScenarios)
  func picturesMatchTheirGoldenFiles(path: String, title: String?, golden: String) throws {
    let svg = try Fixtures.run(scenario(path, titled: title)).svg
    let file = Self.golden.appendingPathComponent(golden)
    if ProcessInfo.processInfo.environment["MARBLES_RECORD_GOLDEN"] == "1" {
      try Data(svg.utf8).write(to: file)
    }
    let expected = try String(contentsOf: file, encoding: .utf8)
    #expect(svg == expected, "the picture of \(path) differs from Golden/\(golden)")
  }

  @Test func theReportOfTheFixturesParsesAndLinksNothing() throws {
    var report = HTMLReport()
    for path in fixturePaths {
      let text = try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
      let file = Fixtures.read(text, path: path)
      for scenario in file.scenarios {
        report.entries.append(try Fixtures.run(scenario).reportEntry(location: path))
      }
    }
    let html = report.html()
    let parser = XMLParser(data: Data(html.utf8))
    let collector = ElementCollector()
    parser.delegate = collector
    #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    #expect(collector.names.count { $0 == "section" } == report.entries.count)
    #expect(collector.names.count { $0 == "svg" } == report.entries.count)
    for forbidden in ["<script", "<link", "src=", "href=", "url(", "@import"] {
      #expect(!html.contains(forbidden), "the report contains \(forbidden)")
    }
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("Marbles: \(report.entries.count) passed, 0 failed"))
  }

  @Test func aFailingScenarioShowsItsTableAndMessageInTheReport() throws {
    let failing = try Fixtures.run(
      scenario("Tests/MarblesCLITests/Fixtures/failing-expectation.marbles", titled: nil))
    var report = HTMLReport()
    report.entries.append(failing.reportEntry(location: "failing-expectation.marbles:4"))
    let html = report.html()
    #expect(html.contains("<span class=\"verdict fail\">FAIL</span>"))
    #expect(html.contains("was  -a|"))
    #expect(html.contains("sub1 got unexpected `a` at frame 1 (expected at frame 2)"))
    #expect(html.contains("first difference: frame 1"))
  }
}

/// The names of the elements of an XML document, in order.
final class ElementCollector: NSObject, XMLParserDelegate {
  var names: [String] = []

  func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
    qualifiedName: String?, attributes: [String: String] = [:]
  ) {
    names.append(elementName)
  }
}
