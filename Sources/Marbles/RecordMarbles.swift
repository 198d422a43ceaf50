import MarbleTesting

/// Where an assertion's expected marble is written in the test's source, for record mode: the
/// call's place and which of its literals.
struct RecordingSite: Sendable {
  var site: SourceSite
  var target: SourceRecorder.Target
  /// The scheduler that drove what the assertion checks, if one did: record mode does not write
  /// down what it drove outside virtual time.
  var core: SchedulerCore? = nil

  /// Records `marbles` — the actual marbles, or why they cannot be written — if record mode
  /// (``/MarbleTesting/MarbleRecording``) says so, and returns what to add to the assertion's
  /// failure: what was written where, or why nothing was; `nil` when there is nothing to say.
  ///
  /// - Parameters:
  ///   - marbles: The marbles to write, or why there are none.
  ///   - expected: The text the assertion compared: its marble literals' (for a table, the
  ///     table's); a call that no longer holds it is not rewritten.
  func record(
    _ marbles: Result<[String], LiteralRewrite.Refusal>, replacing expected: [String]
  ) -> String? {
    let environment = MarbleRecording.environment
    if MarbleRecording.scoped == nil, let unknown = environment.unknown {
      return "\nMARBLES_RECORD is \"\(unknown)\", which names no mode (failed, missing or never): "
        + "nothing was recorded"
    }
    let mode = MarbleRecording.current
    guard mode != .never else { return nil }
    if let notes = core?.driver.notes, !notes.isEmpty {
      return "\nnot recorded (MARBLES_RECORD=\(mode.rawValue)): driven work ran outside virtual "
        + "time (\(notes.joined(separator: "; "))), so the actual marble may not be what the code "
        + "does in virtual time; give that work to the scheduler, or write the marble by hand"
    }
    do {
      let marbles = try marbles.get()
      let written = try SourceRecorder.record(
        marbles, replacing: expected, at: target, onlyIfEmpty: mode == .missing,
        path: "\(site.filePath)",
        line: Int(site.line), column: Int(site.column))
      guard written else { return nil }
      let shown =
        marbles.isEmpty ? "the table's rows" : marbles.map { "`\($0)`" }.joined(separator: ", ")
      return "\nrecorded \(shown) at \(site.fileID):\(site.line); re-run without MARBLES_RECORD"
    } catch {
      return "\nnot recorded (MARBLES_RECORD=\(mode.rawValue)): \(error)"
    }
  }
}

/// The recording a failing assertion asks for, made when its failure is reported
/// (``SourceSite/report(_:)-(Finding)``) — not when a `withKnownIssue` takes the failure, since a
/// known issue's actual marble is the bug's, not what the test should expect.
struct PendingRecording: Sendable {
  let site: RecordingSite
  /// The marbles to write, or why there are none.
  let marbles: Result<[String], LiteralRewrite.Refusal>
  /// The text the assertion compared.
  let expected: [String]

  init(
    site: RecordingSite, marbles: Result<[String], LiteralRewrite.Refusal>,
    replacing expected: [String]
  ) {
    self.site = site
    self.marbles = marbles
    self.expected = expected
  }

  /// Records, if record mode says so, and returns what to say about it (``RecordingSite/record(_:replacing:)``).
  func record() -> String? { site.record(marbles, replacing: expected) }
}
