import Foundation
import Testing

/// The `marbles` executable, run as a subprocess from the package root: exit statuses, what goes
/// to standard output and standard error, and colour.
@Suite struct MarblesCommandTests {
  /// The deliberately broken fixtures, relative to the package root.
  static let brokenSyntax = "Tests/MarblesCLITests/Fixtures/broken-syntax.marbles"
  static let failingExpectation = "Tests/MarblesCLITests/Fixtures/failing-expectation.marbles"
  static let severalMistakes = "Tests/MarblesCLITests/Fixtures/several-mistakes.marbles"
  /// A shipped fixture, for single-file runs.
  static let shipped = "Fixtures/seed004-six-requests.marbles"

  /// The `N passed, M failed` summary: the last line of standard output.
  func summary(_ output: CommandOutput) -> (passed: Int, failed: Int)? {
    guard let last = output.stdoutLines.dropLast().last,
      let match = last.wholeMatch(of: /(\d+) passed, (\d+) failed/)
    else { return nil }
    return (Int(match.1)!, Int(match.2)!)
  }

  @Test func runsEveryShippedFixtureAndExits0() async throws {
    let output = try await MarblesExecutable.run(["Fixtures"])
    #expect(output.status == 0, "\(output)")
    #expect(output.stderr == "")
    let counts = try #require(summary(output), "\(output)")
    #expect(counts.passed > 0)
    #expect(counts.failed == 0)
    let verdicts = output.stdoutLines.filter { $0.hasPrefix("PASS  ") || $0.hasPrefix("FAIL  ") }
    #expect(verdicts.count == counts.passed)
    #expect(verdicts.allSatisfy { $0.hasPrefix("PASS  Fixtures/") && $0.contains(".marbles: ") })
  }

  @Test func theRunCommandWordIsOptional() async throws {
    let implicit = try await MarblesExecutable.run([Self.shipped])
    let explicit = try await MarblesExecutable.run(["run", Self.shipped])
    #expect(implicit.status == 0)
    #expect(explicit.stdout == implicit.stdout)
    #expect(explicit.status == implicit.status)
  }

  @Test func aSyntaxErrorNamesFileLineAndColumnWithACaretAndExits2() async throws {
    let output = try await MarblesExecutable.run([Self.brokenSyntax])
    #expect(output.status == 2, "\(output)")
    #expect(
      output.stderr == """
        \(Self.brokenSyntax):7:16: '(' is never closed
          sub1  gets  -a-(b|
                         ^
        marbles: 1 error, reported above

        """)
    #expect(output.stdout == "0 passed, 0 failed\n")
  }

  @Test func everyMistakeInAFileIsReportedAndTheGoodScenariosStillRun() async throws {
    let output = try await MarblesExecutable.run([Self.severalMistakes])
    #expect(output.status == 2, "\(output)")
    #expect(
      output.stderr == """
        \(Self.severalMistakes):6:16: write each value as 'k = text' with a one-character key, \
        separated by commas
          values: a = x, bb = y
                         ^
        \(Self.severalMistakes):7:17: unknown step 'mapp'; did you mean 'map'? The steps are \
        publish, multicast, connect, dispose-connection, autoconnect, replay, replayLast, \
        replayLazily, map, filter, take, startWith, ignoreValues, merge, concat, then, catch, \
        channel, delay, debounce, throttle, timeout, skip, takeLast, distinctUntilChanged, scan, \
        takeUntil, sample, retry, deliverOn, subscribeOn, flattenMap, combineLatest, zip, buffer, \
        materialize, groupBy
          pipeline: src | mapp(upper)
                          ^
        \(Self.severalMistakes):18:16: unexpected character '='; a value is a letter, a digit, or \
        a key of the values: map
          src   hot   -a-=|
                         ^
        \(Self.severalMistakes):19:14: this marble starts at column 14, but the table's time axis \
        (frame 0) is column 13; align every marble on it, padding with '-' rather than spaces
          sub   gets   -a-b|
                       ^
        marbles: 4 errors, reported above

        """)
    #expect(output.stdout.contains("PASS  \(Self.severalMistakes): a good scenario\n"))
    let counts = try #require(summary(output))
    #expect(counts.passed == 1 && counts.failed == 0)
  }

  @Test func eachTableIsHeadedByItsPipeline() async throws {
    let output = try await MarblesExecutable.run([Self.failingExpectation])
    #expect(
      output.stdout.hasPrefix(
        """
        \(Self.failingExpectation):4: a deliberately wrong expectation
          pipeline: src
          src   cold  -a|

        """), "\(output)")
  }

  @Test(arguments: ["--quiet", "-q"])
  func quietPrintsOnlyFailuresErrorsAndTheSummary(option: String) async throws {
    let output = try await MarblesExecutable.run([
      option, Self.shipped, Self.failingExpectation, Self.severalMistakes,
    ])
    #expect(output.status == 2, "\(output)")
    #expect(!output.stdout.contains("PASS"))
    #expect(output.stdout.contains("FAIL  \(Self.failingExpectation): "))
    #expect(output.stdout.contains("was  -a|"))
    #expect(output.stderr.contains("marbles: 4 errors, reported above"))
    let counts = try #require(summary(output))
    #expect(counts.failed == 1 && counts.passed == 3)
    let quietPassing = try await MarblesExecutable.run([option, Self.shipped])
    #expect(quietPassing.status == 0)
    #expect(quietPassing.stdout.split(separator: "\n").count == 1, "\(quietPassing)")
  }

  @Test func aFailedExpectationPrintsTheWasRowAndAFailLineAndExits1() async throws {
    let output = try await MarblesExecutable.run([Self.failingExpectation])
    #expect(output.status == 1, "\(output)")
    #expect(output.stderr == "")
    #expect(
      output.stdout.contains(
        """
          sub1  gets  --a|
                 was  -a|
                       ^
        """), "\(output)")
    #expect(
      output.stdoutLines.contains(
        "FAIL  \(Self.failingExpectation): a deliberately wrong expectation"))
    let counts = try #require(summary(output))
    #expect(counts.passed == 0 && counts.failed == 1)
  }

  @Test func anErrorOutranksAFailureAndTheOtherFilesStillRun() async throws {
    let output = try await MarblesExecutable.run(["Tests/MarblesCLITests/Fixtures", Self.shipped])
    #expect(output.status == 2, "\(output)")
    #expect(output.stderr.hasPrefix("\(Self.brokenSyntax):7:16: "))
    #expect(output.stdout.contains("FAIL  \(Self.failingExpectation): "))
    #expect(output.stdout.contains("PASS  \(Self.shipped): "))
    // Folders are walked in path order: broken-syntax before several-mistakes.
    let broken = try #require(output.stderr.range(of: Self.brokenSyntax))
    let several = try #require(output.stderr.range(of: Self.severalMistakes))
    #expect(broken.lowerBound < several.lowerBound)
    let counts = try #require(summary(output))
    #expect(counts.failed == 1)
    #expect(counts.passed > 0)
  }

  @Test(arguments: ["--help", "-h"]) func helpPrintsTheUsageAndExits0(option: String) async throws {
    let output = try await MarblesExecutable.run([option])
    #expect(output.status == 0)
    #expect(output.stderr == "")
    #expect(output.stdout.hasPrefix("OVERVIEW: "))
    for text in [
      "USAGE: marbles [run] [options] PATH...", "--filter TEXT", "--no-color", "NO_COLOR",
    ] {
      #expect(output.stdout.contains(text), "\(text)")
    }
  }

  @Test func helpWinsOverAMistakeOnTheSameLine() async throws {
    let output = try await MarblesExecutable.run(["--bogus", "--help"])
    #expect(output.status == 0)
    #expect(output.stdout.hasPrefix("OVERVIEW: "))
  }

  @Test func versionPrintsTheNameAndVersion() async throws {
    let output = try await MarblesExecutable.run(["--version"])
    #expect(output.status == 0)
    #expect(output.stderr == "")
    #expect(output.stdout.wholeMatch(of: /marbles \d+\.\d+\.\d+\S*\n/) != nil, "\(output)")
  }

  @Test func anUnknownOptionIsAUsageErrorWithAHint() async throws {
    let output = try await MarblesExecutable.run(["--filtr", "replay", "Fixtures"])
    #expect(output.status == 2)
    #expect(output.stdout == "")
    #expect(
      output.stderr == """
        marbles: unknown option '--filtr'
        Did you mean '--filter'? Run 'marbles --help' for usage.

        """)
  }

  @Test func noPathsIsAUsageError() async throws {
    let output = try await MarblesExecutable.run([])
    #expect(output.status == 2)
    #expect(output.stderr.hasPrefix("marbles: no fixture files or folders given\n"))
  }

  @Test func aMissingPathExits2AndNamesIt() async throws {
    let output = try await MarblesExecutable.run(["Fixtures/no-such.marbles"])
    #expect(output.status == 2)
    #expect(output.stderr.hasPrefix("marbles: Fixtures/no-such.marbles: no such file or folder\n"))
    #expect(output.stdout == "0 passed, 0 failed\n")
  }

  @Test func filterKeepsScenariosWhosePathContainsTheText() async throws {
    let all = try #require(summary(try await MarblesExecutable.run(["Fixtures"])))
    let output = try await MarblesExecutable.run(["--filter", "six-requests", "Fixtures"])
    #expect(output.status == 0, "\(output)")
    let counts = try #require(summary(output))
    #expect(counts.passed > 0)
    #expect(counts.passed < all.passed)
    let verdicts = output.stdoutLines.filter { $0.hasPrefix("PASS  ") }
    #expect(verdicts.count == counts.passed)
    #expect(verdicts.allSatisfy { $0.hasPrefix("PASS  \(Self.shipped): ") })
  }

  @Test func filterMatchesTitlesIgnoringCase() async throws {
    let output = try await MarblesExecutable.run([
      "--filter=DELIBERATELY WRONG", Self.failingExpectation, Self.shipped,
    ])
    #expect(output.status == 1, "\(output)")
    let counts = try #require(summary(output))
    #expect(counts.passed == 0 && counts.failed == 1)
  }

  @Test func filterMatchingNothingSaysSoAndExits0() async throws {
    let output = try await MarblesExecutable.run([
      "Fixtures", "--filter", "no scenario is called this",
    ])
    #expect(output.status == 0)
    #expect(output.stdout == "0 passed, 0 failed\n")
    #expect(
      output.stderr
        == "marbles: no scenario's title or file path contains 'no scenario is called this'\n")
  }

  @Test func showPrintsTimelinesWithoutVerdicts() async throws {
    let output = try await MarblesExecutable.run(["show", Self.failingExpectation])
    #expect(output.status == 0, "\(output)")
    #expect(output.stderr == "")
    #expect(
      output.stdout == """
        \(Self.failingExpectation):4: a deliberately wrong expectation
          pipeline: src
          src   cold  -a|
          sub1  gets  -a|


        """)
  }

  @Test func showReportsASyntaxErrorAndExits2() async throws {
    let output = try await MarblesExecutable.run(["show", Self.brokenSyntax])
    #expect(output.status == 2)
    #expect(output.stderr.hasPrefix("\(Self.brokenSyntax):7:16: '(' is never closed\n"))
  }

  @Test func showWithoutAFileIsAUsageError() async throws {
    let output = try await MarblesExecutable.run(["show"])
    #expect(output.status == 2)
    #expect(output.stderr.hasPrefix("marbles: 'show' needs a fixture file\n"))
  }

  // MARK: Colour

  static let escape = "\u{1B}["

  @Test func pipedOutputHasNoColour() async throws {
    for path in [Self.shipped, Self.failingExpectation, Self.brokenSyntax] {
      let output = try await MarblesExecutable.run([path])
      #expect(!output.stdout.contains(Self.escape), "\(path)")
      #expect(!output.stderr.contains(Self.escape), "\(path)")
    }
  }

  @Test func aTerminalGetsColour() async throws {
    let output = try await MarblesExecutable.run([Self.shipped], terminal: true)
    #expect(output.status == 0, "\(output)")
    #expect(output.stdout.contains("\u{1B}[32mPASS\u{1B}[0m  \(Self.shipped): "), "\(output)")
    #expect(output.stdout.contains("\u{1B}[2m\(Self.shipped):"))
    let failing = try await MarblesExecutable.run([Self.failingExpectation], terminal: true)
    #expect(failing.stdout.contains("\u{1B}[31mFAIL\u{1B}[0m  \(Self.failingExpectation): "))
  }

  @Test func anEmptyNoColorVariableStillAllowsColour() async throws {
    let output = try await MarblesExecutable.run(
      [Self.shipped], environment: ["NO_COLOR": ""], terminal: true)
    #expect(output.stdout.contains(Self.escape))
  }

  @Test(arguments: [
    (["--no-color"], [String: String?]()),
    ([], ["NO_COLOR": "1"]),
  ])
  func noColourOnATerminalWhenAskedNotTo(options: [String], environment: [String: String?])
    async throws
  {
    let output = try await MarblesExecutable.run(
      options + [Self.shipped, Self.failingExpectation], environment: environment, terminal: true)
    #expect(output.status == 1, "\(output)")
    #expect(output.stdout.contains("PASS  "))
    #expect(output.stdout.contains("FAIL  "))
    #expect(!output.stdout.contains(Self.escape))
  }

  // MARK: Pictures

  @Test func htmlWritesOneSelfContainedPageForTheRun() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("marbles-html-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let report = folder.appendingPathComponent("report.html").path
    let output = try await MarblesExecutable.run([
      "--html", report, Self.shipped, Self.failingExpectation,
    ])
    #expect(output.status == 1, "\(output)")
    #expect(output.stdout.contains("report: \(report)\n"))
    let html = try String(contentsOfFile: report, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.contains("Marbles: 2 passed, 1 failed"))
    #expect(html.components(separatedBy: "<svg ").count - 1 == 3)
    #expect(
      html.contains("<span class=\"verdict fail\">FAIL</span>a deliberately wrong expectation"))
    #expect(!html.contains("<script") && !html.contains("href="))
  }

  @Test func showWritesOneScenariosPictureWithSvg() async throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("marbles-svg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let picture = folder.appendingPathComponent("six.svg").path
    let output = try await MarblesExecutable.run([
      "show", Self.shipped, "--filter", "replayLazily", "--svg", picture,
    ])
    #expect(output.status == 0, "\(output)")
    let svg = try String(contentsOfFile: picture, encoding: .utf8)
    #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "))
    #expect(svg.contains(">with replayLazily — one subscription, one request, shared by all six<"))
  }

  @Test func svgGoesWithShowAndHtmlWithRun() async throws {
    let svgWithRun = try await MarblesExecutable.run(["--svg", "x.svg", Self.shipped])
    #expect(svgWithRun.status == 2)
    #expect(
      svgWithRun.stderr.hasPrefix("marbles: '--svg' draws one scenario, so it goes with 'show'"))
    let htmlWithShow = try await MarblesExecutable.run(["show", "--html", "x.html", Self.shipped])
    #expect(htmlWithShow.status == 2)
    #expect(htmlWithShow.stderr.hasPrefix("marbles: '--html' reports a run, so it goes with 'run'"))
  }
}
