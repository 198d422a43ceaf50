import MarbleFixtures

/// The loop behind `marbles run` and `marbles show`: find the files, read and parse each, pick
/// the scenarios the filter lets through, and run or show them in file order.
///
/// A problem with one file — an unreadable path, a syntax error, a pipeline that cannot be
/// built — is written to standard error (`path:line:column: message`, the line and a caret) and
/// the remaining files still run, so one broken fixture does not hide the others' results; the
/// command then exits with ``ExitStatus/error``. Every mistake in a file is reported — headers,
/// rows, marbles and pipelines of every scenario, whatever `--filter` selects — and the
/// scenarios without one still run.
struct FixtureRunner {
  /// Only scenarios whose title or file path contains this text, ignoring case.
  var filter: String?
  /// Whether to print only failing scenarios, errors and the summary (`--quiet`).
  var quiet = false
  /// Where to write the run's HTML report (`--html`).
  var htmlPath: String?
  /// Where to write the shown scenario's picture (`show --svg`).
  var svgPath: String?
  /// Whether to write the actual rows of failing scenarios into their files (`--record`).
  var record = false
  /// How to decorate the output.
  var style: OutputStyle
  /// Where to write.
  var console: Console

  /// What a run found.
  struct Tally: Sendable, Equatable {
    /// Scenarios whose expectations held.
    var passed = 0
    /// Scenarios with an expectation that did not hold.
    var failed = 0
    /// Paths, files and scenarios that could not be read or run.
    var errors = 0
    /// Scenarios the filter let through.
    var selected = 0

    /// The exit status: an error outranks a failure.
    var status: ExitStatus {
      errors > 0 ? .error : failed > 0 ? .failure : .success
    }
  }

  /// Runs every selected scenario: prints its table as it ran and a `PASS` or `FAIL` line, then
  /// the summary `N passed, M failed`.
  ///
  /// ```
  /// Fixtures/replay.marbles:4: replayLazily subscribes once
  ///   fetch  cold  ---r|
  ///   …
  /// PASS  Fixtures/replay.marbles: replayLazily subscribes once
  ///
  /// 1 passed, 0 failed
  /// ```
  ///
  /// - Parameter paths: Files and folders.
  /// - Returns: What the run found; its ``Tally/status`` is the exit status.
  func run(_ paths: [String]) -> Tally {
    var report = HTMLReport()
    // For --record: each file's failing scenarios, with what their runs found, in file order.
    var recorded: [(path: String, scenarios: [(Scenario, ScenarioResult)])] = []
    var tally = forEachScenario(in: paths, errors: { report.errors.append($0) }) {
      scenario, tally in
      let location = "\(scenario.path): \(scenario.title)"
      do throws(FixtureError) {
        let result = try Fixtures.run(scenario)
        if record, !result.passed {
          if let refusal = result.recordingRefusal {
            console.error("\(scenario.path):\(scenario.line): not recorded: \(refusal)\n")
          } else {
            if recorded.last?.path != scenario.path { recorded.append((scenario.path, [])) }
            recorded[recorded.count - 1].scenarios.append((scenario, result))
          }
        }
        report.entries.append(result.reportEntry(location: "\(scenario.path):\(scenario.line)"))
        if result.passed { tally.passed += 1 } else { tally.failed += 1 }
        // --quiet leaves out the scenarios that passed.
        guard !(quiet && result.passed) else { return }
        console.output(header(scenario) + indented(result.text) + "\n")
        console.output(
          (result.passed ? style.pass("PASS") : style.fail("FAIL")) + "  \(location)\n\n")
      } catch {
        tally.errors += 1
        report.entries.append(
          HTMLReport.Entry(
            title: scenario.title, location: "\(scenario.path):\(scenario.line)", passed: nil,
            text: error.description))
        console.output(header(scenario))
        console.error(error.description + "\n")
        console.output(style.fail("ERROR") + " \(location)\n\n")
      }
    }
    console.output("\(tally.passed) passed, \(tally.failed) failed\n")
    for (path, scenarios) in recorded {
      do {
        let text = try FixtureFiles.read(path)
        try FixtureFiles.write(Fixtures.record(text, scenarios), to: path)
        let titles = scenarios.map { "'\($0.0.title)'" }.joined(separator: ", ")
        console.output("recorded \(titles) in \(path); run again without --record\n")
      } catch {
        tally.errors += 1
        console.error("\(path): not recorded: \(error)\n")
      }
    }
    if let htmlPath {
      do throws(FixtureFiles.Problem) {
        try FixtureFiles.write(report.html(), to: htmlPath)
        console.output("report: \(htmlPath)\n")
      } catch {
        tally.errors += 1
        console.error(error.description + "\n")
      }
    }
    reportErrorCount(tally)
    return tally
  }

  /// Prints every selected scenario's resulting timelines, without checking any expectation.
  ///
  /// - Parameter paths: Files and folders.
  /// - Returns: What was found; its ``Tally/status`` is ``ExitStatus/success`` unless something
  ///   could not be read or run.
  func show(_ paths: [String]) -> Tally {
    var drawn: [String] = []
    let tally = forEachScenario(in: paths) { scenario, tally in
      do throws(FixtureError) {
        let timelines = try Fixtures.show(scenario)
        console.output(header(scenario) + indented(timelines) + "\n")
        guard let svgPath else { return }
        drawn.append(scenario.title)
        guard drawn.count == 1 else { return }
        let picture = try Fixtures.run(scenario).svg
        do throws(FixtureFiles.Problem) {
          try FixtureFiles.write(picture, to: svgPath)
          console.output("picture of '\(scenario.title)': \(svgPath)\n")
        } catch {
          tally.errors += 1
          console.error(error.description + "\n")
        }
      } catch {
        tally.errors += 1
        console.output(header(scenario))
        console.error(error.description + "\n")
        console.output(style.fail("ERROR") + " \(scenario.path): \(scenario.title)\n\n")
      }
    }
    if drawn.count > 1 {
      console.error(
        "marbles: --svg draws one scenario: '\(drawn[0])'; \(drawn.count - 1) more matched (pick "
          + "one with --filter)\n")
    }
    reportErrorCount(tally)
    return tally
  }

  /// Reads and parses each fixture file the paths name, and calls `body` with each scenario the
  /// filter lets through, in order; reports unreadable paths and syntax errors on the way (and
  /// hands their text to `errors`).
  private func forEachScenario(
    in paths: [String], errors: (String) -> Void = { _ in },
    _ body: (Scenario, inout Tally) -> Void
  ) -> Tally {
    var tally = Tally()
    for expansion in FixtureFiles.expand(paths) {
      let files: [String]
      switch expansion {
      case .success(let found):
        files = found
      case .failure(let problem):
        tally.errors += 1
        console.error(problem.description + "\n")
        errors(problem.description)
        continue
      }
      for path in files {
        let text: String
        do throws(FixtureFiles.Problem) {
          text = try FixtureFiles.read(path)
        } catch {
          tally.errors += 1
          console.error(error.description + "\n")
          errors(error.description)
          continue
        }
        let fixture = Fixtures.read(text, path: path)
        for error in fixture.errors {
          tally.errors += 1
          console.error(error.description + "\n")
          errors(error.description)
        }
        for scenario in fixture.scenarios where matches(scenario) {
          tally.selected += 1
          body(scenario, &tally)
        }
      }
    }
    if let filter, tally.selected == 0 {
      console.error("marbles: no scenario's title or file path contains '\(filter)'\n")
    }
    return tally
  }

  /// Whether the filter lets `scenario` through.
  private func matches(_ scenario: Scenario) -> Bool {
    guard let filter = filter?.lowercased() else { return true }
    return scenario.title.lowercased().contains(filter)
      || scenario.path.lowercased().contains(filter)
  }

  /// Closes a run that met errors with their count on standard error, after the summary.
  private func reportErrorCount(_ tally: Tally) {
    guard tally.errors > 0 else { return }
    let noun = tally.errors == 1 ? "error" : "errors"
    console.error("marbles: \(tally.errors) \(noun), reported above\n")
  }

  /// The dim `path:line: title` line above a scenario's table, and its pipeline.
  private func header(_ scenario: Scenario) -> String {
    style.dim("\(scenario.path):\(scenario.line): \(scenario.title)") + "\n"
      + style.dim("  pipeline: \(scenario.pipeline)") + "\n"
  }

  /// `text` with every non-empty line indented by two spaces, trailing spaces removed, and each
  /// line ending in a newline.
  private func indented(_ text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.replacing(/\s+$/, with: "")
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines.map { $0.isEmpty ? "\n" : "  \($0)\n" }.joined()
  }
}
