package import MarbleTesting

/// A fixture file: one or more scenarios, each an expectation table with a title, a frame length,
/// optional values and a `pipeline:` naming the operators under test. See `Fixtures/README.md`.
package struct FixtureFile: Sendable {
  /// The path the text came from (for messages).
  package var path: String
  /// The scenarios that can run, in file order.
  package var scenarios: [Scenario]
  /// Every mistake found in the file, in order; a scenario with one is not in ``scenarios``.
  package var errors: [FixtureError] = []
}

/// One scenario of a fixture file.
package struct Scenario: Sendable {
  /// The `title:`.
  package var title: String
  /// The path of the file it is in.
  package var path: String
  /// The 1-based line of its `title:`.
  package var line: Int
  /// The `frame:` length (1 ms by default).
  package var frame: Duration
  /// What each value character stands for (`values:`); a character not listed stands for itself.
  package var values: [Character: String]
  /// Whether `failure: never` says the sources cannot fail, so that a `#` is a mistake.
  package var cannotFail = false
  /// The `pipeline:` text and where it is.
  package var pipeline: String
  package var pipelineLine: Int
  package var pipelineColumn: Int
  package var pipelineSourceLine: String
  /// The rows.
  package var table: MarbleTable
}

/// What running (or showing) a scenario gave.
package struct ScenarioResult: Sendable {
  /// The scenario's title.
  package var title: String
  /// Whether every expectation held.
  package var passed: Bool
  /// The table as run: as written when it passed; with `was` rows, carets and sentences when not.
  package var text: String
  /// The scenario drawn: its lanes, with the expected and actual ones of every wrong row.
  package var picture: MarblePicture
  /// One sentence per wrong row; empty when it passed.
  package var mismatches: [String]
  /// What `marbles --record` writes for the wrong rows, or why it cannot.
  package var recording: Result<[LiteralRewrite.TableRecord], LiteralRewrite.Refusal> = .success(
    [])

  /// Why `marbles --record` cannot write the wrong rows, if it cannot.
  package var recordingRefusal: String? {
    guard case .failure(let refusal) = recording else { return nil }
    return refusal.description
  }

  /// ``picture`` as a standalone SVG document.
  package var svg: String { picture.svg() }

  /// The scenario's section of an HTML report.
  package func reportEntry(location: String) -> HTMLReport.Entry {
    var picture = picture
    picture.title = nil  // the section's heading names it
    return HTMLReport.Entry(
      title: title, location: location, passed: passed, text: text, picture: picture)
  }
}

/// A fixture that cannot be read or run: `path:line:column: message`, the line, and a caret.
package struct FixtureError: Error, Sendable, CustomStringConvertible {
  /// The file.
  package var path: String
  /// The position and message.
  package var syntax: MarbleSyntaxError

  /// `path:line:column: message`, then the line and a caret.
  package var description: String {
    let lines = syntax.description.split(separator: "\n", omittingEmptySubsequences: false)
    return "\(path):\(syntax.line):\(syntax.column): \(syntax.message)\n"
      + lines.dropFirst().joined(separator: "\n")
  }
}

/// The `marbles` command's setting: its schedulers drive signals only, so the process installs no
/// enqueue hook and starts no thread of the async driving.
package enum CommandLineDriving {
  /// Makes every scheduler made from now on drive signals only. Call it before any is made.
  package static func driveSignalsOnly() {
    SchedulerCore.drivesTasksByDefault = false
  }
}
