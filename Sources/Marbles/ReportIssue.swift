import MarbleTesting
import Testing
import XCTest

/// Reports a failure at the caller's source location in whichever test framework is running.
///
/// - On a Swift Testing test's own task (`Test.current` is set; it is task-local), the failure is
///   an issue of that test.
/// - Anywhere else — a detached task, another thread, an XCTest test — it goes to both frameworks,
///   and the one that is running records it: XCTest against the test case in progress (from any
///   thread), Swift Testing as an issue of no particular test (“Test «unknown» recorded an issue”),
///   which still fails the run. The other framework ignores the call: Swift Testing drops an issue
///   when no Swift Testing run is in progress, and XCTest a failure when no XCTest case is running.
///   (`XCTFail` alone would vanish in a Swift Testing run, and `Issue.record` alone in an XCTest
///   one.)
func reportIssue(
  _ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt
) {
  if let capture = IssueCapture.current {
    // A schedule under exploration: its issues are reported once, with the report.
    capture.append("\(fileID):\(line): \(message)")
    return
  }
  let location = SourceLocation(
    fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
  if Test.current != nil {
    Issue.record(Comment(rawValue: message), sourceLocation: location)
  } else {
    XCTFail(message, file: filePath, line: line)
    Issue.record(Comment(rawValue: message), sourceLocation: location)
  }
}

/// Reports a warning — something the test should know that does not fail it — at the caller's
/// source location: a Swift Testing issue of severity `.warning`; in an XCTest run (which has no
/// warnings) a line on standard error naming the place.
func reportWarning(
  _ message: String, fileID: String, filePath: StaticString, line: UInt, column: UInt
) {
  let location = SourceLocation(
    fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
  if Test.current != nil {
    Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: location)
  } else {
    Platform.printError("\(filePath):\(line):\(column): warning: \(message)\n")
  }
}

/// Where an assertion or an expectation was written, so that its failures are reported there.
struct SourceSite: Sendable {
  var fileID: String
  var filePath: StaticString
  var line: UInt
  var column: UInt

  /// `file:line:column`, for messages printed outside a test.
  var description: String { "\(filePath):\(line):\(column)" }

  /// The same place, as Swift Testing names it.
  var sourceLocation: SourceLocation {
    SourceLocation(fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
  }

  /// The same place, as `MarbleTesting` names it.
  var schedulerSite: SchedulerSite {
    SchedulerSite(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Reports `message`, cut to a few kilobytes if it is longer (``MessageBounds/capped(_:)``).
  func report(_ message: String) {
    reportIssue(
      MessageBounds.capped(message), fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Reports the failures of `core`'s scheduler (a step limit hit, a refused concurrent run) that
  /// no assertion has reported yet, each once.
  func reportFailures(of core: SchedulerCore) {
    for failure in core.takeUnreportedFailures() { report("\(failure)") }
  }

  /// Reports `message` as a warning here (``reportWarning(_:fileID:filePath:line:column:)``).
  func warn(_ message: String) {
    reportWarning(
      MessageBounds.capped(message), fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Reports each task started with `scheduler.task` that is still suspended though the scheduler
  /// has nothing left to run: nothing in virtual time will resume it.
  ///
  /// What driven work did outside virtual time (a Dispatch timer source, which runs in real time)
  /// is named in those reports; when no task is stuck, each such note not named before is a
  /// warning of its own — never silent, and not a failure, since the test may mean it.
  func reportStalledTasks(of core: SchedulerCore) {
    guard !core.hasLiveWork else { return }
    let notes = core.driver.notes
    let seen =
      notes.isEmpty
      ? "" : " Driven work did this outside virtual time: " + notes.joined(separator: "; ") + "."
    let unfinished = core.tasks.takeUnfinished()
    let unnamed = core.driver.takeUnnamedNotes()
    if unfinished.isEmpty {
      for note in unnamed { warn("Driven work did this outside virtual time: \(note).") }
    }
    for task in unfinished {
      guard !core.driver.isWaitingForTheMainActor(task.taskID) else {
        report(
          "\(task.name) (started at tick \(task.startedAt)) is still suspended at tick "
            + "\(core.now), waiting for the main actor, which never came free while the scheduler "
            + "drove it: is the test blocking the main actor — a @MainActor test waiting on a "
            + "lock or a semaphore — while another thread drives the scheduler? Drive the "
            + "scheduler from the main actor, or leave the main actor free while another thread "
            + "drives it.")
        continue
      }
      report(
        "\(task.name) (started at tick \(task.startedAt)) is still suspended at tick \(core.now), "
          + "and nothing in virtual time will resume it: it waits on something outside virtual "
          + "time — a real clock, a thread, a Dispatch queue, an actor with an executor of its "
          + "own, a continuation nobody resumes — or on input that never comes.\(seen) Give its "
          + "waits to the scheduler (scheduler.clock, test signals), or cancel it.")
    }
  }

  /// Reports what an assertion on something `core` drives found: the scheduler's unreported
  /// failures, then `message` if there is one, with a note when the scheduler still has work due —
  /// the likeliest reason for a surprise.
  func reportAssertion(_ message: String?, on core: SchedulerCore) {
    reportAssertion(message.map { Finding(message: $0) }, on: core)
  }

  /// ``reportAssertion(_:on:)-(String?,_)`` for a finding that may come with a picture, which is
  /// attached to the Swift Testing issue.
  func reportAssertion(_ finding: Finding?, on core: SchedulerCore) {
    reportFailures(of: core)
    guard var finding else { return }
    finding.message += PendingWork.note(core)
    report(finding)
  }

  /// Reports a finding's message, attaches its picture, and makes the recording it asks for.
  ///
  /// In a Swift Testing test the failure is recorded first, and its marble written only if the
  /// failure counts — not when a `withKnownIssue` takes it — with what recording did as a warning
  /// beside it. Elsewhere (XCTest, which has no known issues on Linux; a schedule under
  /// exploration, whose issues are held) what recording did ends the failure's message.
  func report(_ finding: Finding) {
    if let recording = finding.recording, Test.current != nil, IssueCapture.current == nil {
      let issue = Issue.record(
        Comment(rawValue: MessageBounds.capped(finding.message)), sourceLocation: sourceLocation)
      if let picture = finding.picture { attach(picture) }
      guard issue.isFailure, let note = recording.record() else { return }
      let message = String(note.drop { $0 == "\n" })
      if let deferred = DeferredWarnings.current {
        deferred.append(message, at: self)
      } else {
        warn(message)
      }
      return
    }
    report(finding.message + (finding.recording?.record() ?? ""))
    if let picture = finding.picture { attach(picture) }
  }

  /// Attaches an SVG picture to the current Swift Testing test, named after it; Swift Testing
  /// saves it with the test's other attachments (`swift test --attachments-path DIR`). Outside a
  /// Swift Testing test there is nothing to attach to, and the text message stands alone.
  func attach(_ svg: String, showing what: String = "expected vs actual") {
    // A schedule under exploration: only the report's picture is attached.
    guard let test = Test.current, IssueCapture.current == nil else { return }
    // `someTest()` or its display name, then what it shows: runs of other characters become one
    // `-`, so the name is a plain file name.
    var name = ""
    for character in (test.displayName ?? test.name) + " " + what {
      if character.isLetter || character.isNumber {
        name.append(character)
      } else if !name.isEmpty, name.last != "-" {
        name.append("-")
      }
    }
    if name.last == "-" { name.removeLast() }
    Attachment.record(
      svg, named: name + ".svg",
      sourceLocation: SourceLocation(
        fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column)))
  }
}

/// What an assertion found wrong: the message, and a picture of expected against actual when
/// there is one to draw.
struct Finding: Sendable {
  var message: String
  /// An SVG document.
  var picture: String? = nil
  /// The recording of the actual marble that record mode may make.
  var recording: PendingRecording? = nil
}

/// The note an assertion adds when its scheduler still has work to do.
enum PendingWork {
  /// `\n3 actions pending at tick 7 — did you forget `run()`?`, or nothing when nothing is due.
  static func note(_ core: SchedulerCore) -> String {
    let count = core.liveActionCount
    guard count > 0 else { return "" }
    return "\n\(count) action\(count == 1 ? "" : "s") pending at tick \(core.now) — did you "
      + "forget `run()`?"
  }
}

/// A `values:` map keyed by characters, converted when an expectation is stated so that the
/// check `flush()` runs later holds only `Sendable` parts.
struct KeyedValues<Value: Sendable>: Sendable {
  private let keyed: Result<[Character: Value], MarbleSyntaxError>

  init<Key: MarbleValueKey>(_ values: [Key: Value], for marbles: String) {
    keyed = Result { () throws(MarbleSyntaxError) in
      try Marble.characterKeyed(values, for: marbles)
    }
  }

  /// What `check` finds with the map, or why a key of it cannot be drawn.
  func finding(_ check: ([Character: Value]) -> Finding?) -> Finding? {
    switch keyed {
    case .success(let values): check(values)
    case .failure(let error): Finding(message: "marble cannot be read: \(error)")
    }
  }
}
