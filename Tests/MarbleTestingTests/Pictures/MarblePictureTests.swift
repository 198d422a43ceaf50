import Foundation
import MarbleTesting
import Signals
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Marble pictures: well-formed SVG with the lanes, circles and marks their events call for.
@Suite struct MarblePictureTests {
  /// The elements of an XML document, in order, with their attributes and text; `nil` if it does
  /// not parse.
  final class Elements: NSObject, XMLParserDelegate {
    var names: [String] = []
    var attributes: [[String: String]] = []
    var texts: [String] = []
    private var text = ""

    static func of(_ document: String) -> Elements? {
      let elements = Elements()
      let parser = XMLParser(data: Data(document.utf8))
      parser.delegate = elements
      return parser.parse() ? elements : nil
    }

    func parser(
      _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      names.append(elementName)
      self.attributes.append(attributes)
      text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(
      _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
      qualifiedName: String?
    ) {
      if elementName == "text" { texts.append(text) }
    }

    func count(_ name: String) -> Int { names.count { $0 == name } }
  }

  @Test func aMarbleIsAWellFormedStandaloneSVGWithAViewBox() throws {
    let svg = try Marble.svg("-a-b-|", title: "source")
    #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
    let elements = try #require(Elements.of(svg))
    #expect(elements.names.first == "svg")
    let root = try #require(elements.attributes.first)
    #expect(root["version"] == "1.1")
    #expect(root["xmlns"] == "http://www.w3.org/2000/svg")
    let viewBox = try #require(root["viewBox"]).split(separator: " ")
    #expect(viewBox.count == 4 && viewBox[2] == Substring(root["width"]!))
    #expect(elements.count("circle") == 2)
    #expect(elements.texts.contains("a") && elements.texts.contains("b"))
    #expect(elements.texts.contains("source"))
  }

  @Test func valuesAreCirclesCompletionABarAndAnErrorACross() throws {
    let events = try Marble.parse("-a-#")
    let completed = try Marble.parse("-a|")
    let failing = try #require(Elements.of(Marble.svg(events)))
    let ending = try #require(Elements.of(Marble.svg(completed)))
    // A cross is two red lines; a bar one dark line, three wide.
    let red = failing.attributes.filter { $0["stroke"] == "#D00000" }
    #expect(red.count == 2)
    let bars = ending.attributes.filter { $0["stroke"] == "#222222" && $0["stroke-width"] == "3" }
    #expect(bars.count == 1)
    #expect(failing.count("circle") == 1 && ending.count("circle") == 1)
  }

  @Test func equalValuesShareAColourAcrossLanes() throws {
    let expected = try Marble.parse("-a-b|")
    let actual = try Marble.parse("--ab|")
    let elements = try #require(
      Elements.of(Marble.svg(expected: expected, actual: actual, values: Marble.characterValues)))
    let fills = elements.attributes.filter { $0["r"] != nil }.map { $0["fill"]! }
    #expect(fills.count == 4)
    #expect(fills[0] == fills[2] && fills[1] == fills[3])
    // The first difference is a red dashed line, and the note says what it is.
    #expect(elements.texts.contains("first difference: frame 1"))
    #expect(
      elements.texts.contains(
        "At frame 1: expected next(\"a\") at frame 1, got nothing; next(\"a\") came at frame 2."))
  }

  @Test func groupsStackAtOneFrame() throws {
    let svg = try Marble.svg("-(abc)|")
    let elements = try #require(Elements.of(svg))
    let circles = elements.attributes.filter { $0["r"] != nil }
    #expect(circles.count == 3)
    #expect(Set(circles.map { $0["cx"]! }).count == 1)
    #expect(Set(circles.map { $0["cy"]! }).count == 3)
  }

  @Test func subscriptionsAreBrackets() throws {
    let svg = Marble.svg([Subscription(1, 4), Subscription(2)], title: "source")
    let elements = try #require(Elements.of(svg))
    let blue = elements.attributes.filter { $0["stroke"] == "#0072B2" }
    // A closed bracket: a line and two ticks; an open one: a line, a tick and an arrowhead.
    #expect(blue.count == 6)
    // Each bracket's tooltip says when.
    #expect(svg.components(separatedBy: "<title>subscribed at frame").count - 1 == 2)
    #expect(svg.contains("<title>subscribed at frame 1, disposed at frame 4</title>"))
  }

  @Test func innerSignalsBranchFromTheirFrame() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A-|")
    let groups = scheduler.recordHigherOrder(source.groupBy { $0.lowercased() })
    scheduler.run()
    let elements = try #require(Elements.of(Marble.svg(groups.events, title: "groups")))
    #expect(elements.texts.contains("groups"))
    #expect(elements.texts.contains("1") && elements.texts.contains("2"))
    let branches = elements.attributes.filter { $0["stroke-dasharray"] == "3 2" && $0["x1"] != nil }
    #expect(branches.count == 2)
  }

  @Test func hostileLabelsAreEscaped() throws {
    let events: [Recorded<Event<String, TestError>>] = [
      .next(1, "<script>alert('&')</script>"), .next(2, "\"quoted\" & <b>"),
      .error(3, TestError("</svg><svg>")),
    ]
    let svg = Marble.svg(events, title: "a <title> & \"more\"")
    let elements = try #require(Elements.of(svg))
    #expect(!svg.contains("<script>"))
    #expect(!svg.contains("</svg><svg>"))
    #expect(elements.texts.contains("a <title> & \"more\""))
    #expect(elements.count("svg") == 1)
    #expect(elements.count("script") == 0)
  }

  @Test func aTenThousandFrameLaneIsElidedAndSaysSo() throws {
    let events: [Recorded<Event<Int, TestError>>] =
      (0..<10_000).map { .next($0, $0 % 5) } + [.completed(10_000)]
    let svg = Marble.svg(events, title: "long")
    #expect(svg.utf8.count < 40_000)
    let elements = try #require(Elements.of(svg))
    let width = try #require(Int(elements.attributes[0]["width"] ?? ""))
    #expect(width < 3_000)
    #expect(elements.texts.contains("Frames 86–9989 are not shown (9904 events)."))
    // What is shown is drawn at full size: the first 86 values, the last 10 and the end.
    #expect(elements.attributes.filter { $0["r"] == "10" }.count == 86 + 10)
    #expect(
      elements.attributes.filter { $0["stroke"] == "#222222" && $0["stroke-width"] == "3" }.count
        == 1)
  }

  @Test func longQuietStretchesAreBreaks() throws {
    let svg = try Marble.svg("a 1s b|")
    let elements = try #require(Elements.of(svg))
    #expect(elements.texts.contains("+1000"))
    #expect(elements.texts.contains("≈ +n: n frames in which nothing happens."))
  }

  @Test func aLongLaneTitleIsCutToTheGutterAndKeptInItsTooltip() throws {
    let title = String(repeating: "long title ", count: 8)
    let svg = Marble.svg([.next(1, "a")] as [Recorded<Event<String, TestError>>], title: title)
    let elements = try #require(Elements.of(svg))
    let label = try #require(elements.texts.first { $0.hasPrefix("long title") })
    #expect(label.count == 40 && label.hasSuffix("…"))
    #expect(svg.contains("<title>\(title)</title>"))
  }

  @Test func theSameInputGivesTheSameBytes() throws {
    let first = try Marble.svg("-a-(bc)-#", title: "x")
    for _ in 0..<5 { #expect(try Marble.svg("-a-(bc)-#", title: "x") == first) }
  }

  @Test func aFailedTableIsDrawnWithExpectedAndActualRows() throws {
    let report = try MarbleTable.parse(
      """
      fetch  cold  ---r|
      sub1   sub   -^--------
      sub1   gets  ----r|
      sub2   sub   ------^---
      sub2   gets  ------(r|)
      fetch  subs  -^---!
      """
    ).run(values: Marble.characterValues, error: TestError()) { $0["fetch"] }
    #expect(!report.passed)
    let titles = report.picture.lanes.map(\.title)
    #expect(
      titles == [
        "fetch (cold)", "sub1 subscribes", "sub1", "sub2 subscribes", "sub2 (expected)",
        "sub2 (was)", "fetch subs (expected)", "fetch subs (was)",
      ])
    #expect(report.picture.firstDifference == 6)
    let elements = try #require(Elements.of(report.picture.svg()))
    #expect(elements.texts.contains("first difference: frame 6"))
  }

  /// The picture in the README: the table of its "A table test" section, without the
  /// `replayLazily()`. `MARBLES_RECORD_GOLDEN=1` writes it anew.
  @Test func theReadmePictureIsCurrent() throws {
    var report = try MarbleTable.parse(
      """
      fetch  cold  ---r|
      sub1   sub   -^--------
      sub1   gets  ----r|
      sub2   sub   ------^---
      sub2   gets  ------(r|)
      fetch  subs  -^---!
      """
    ).run(values: Marble.characterValues, error: TestError()) { $0["fetch"] }
    report.picture.title = "replayLazily() forgotten: two requests, and sub2 waits for its own"
    let svg = report.picture.svg()
    let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/Marbles/Marbles.docc/Resources/table-failure.svg")
    if ProcessInfo.processInfo.environment["MARBLES_RECORD_GOLDEN"] == "1" {
      try Data(svg.utf8).write(to: file)
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == svg)
  }
}
