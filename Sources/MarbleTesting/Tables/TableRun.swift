@_spi(Internals) public import Signals

/// The sources a table declares, handed to the pipeline under test.
///
/// `sources["fetch"]` is the test signal of the table's `fetch` row. Asking for a source the table
/// does not declare gives a signal that never sends and makes the table fail, naming the sources it
/// has.
public final class TableSources<Value: Sendable, Failure: Error>: Sendable {
  /// The scheduler the table runs on; pass it to time-based operators.
  public let scheduler: TestScheduler
  private let signals: [String: TestSignal<Value, Failure>]
  private let unknown = Locked<[String]>([])

  init(scheduler: TestScheduler, signals: [String: TestSignal<Value, Failure>]) {
    self.scheduler = scheduler
    self.signals = signals
  }

  /// The test signal of the source row named `label`.
  public subscript(label: String) -> TestSignal<Value, Failure> {
    if let signal = signals[label] { return signal }
    unknown.withLock { $0.append(label) }
    return TestSignal(kind: .hot, events: [], scheduler: scheduler)
  }

  /// The labels asked for that the table does not declare.
  var unknownLabels: [String] { unknown.withLock { $0 } }
  var knownLabels: [String] { signals.keys.sorted() }
}

/// What running a table found.
public struct TableReport: Sendable, Equatable, CustomStringConvertible {
  /// One sentence per wrong row (and per scheduler failure); empty when the table holds.
  public var mismatches: [String]
  /// The table as run. When it fails: every wrong row followed by a `was` row with what actually
  /// happened and a caret under the first differing frame, then the mismatches in words.
  public var text: String

  /// The table with every `gets` row showing what its subscriber actually received and every
  /// source's `subs` rows showing the subscriptions it actually saw: the scenario's timelines,
  /// right or wrong.
  public var actual: String

  /// The scenario drawn as a picture: each source's lane, each subscriber's subscription, what it
  /// must receive and — where that differs — what it received, and each source's subscriptions
  /// (expected, and actual where they differ), with the first difference marked. Its
  /// ``MarblePicture/svg(standalone:)`` is what a failing `assertTable` attaches and the `marbles`
  /// command's HTML report shows.
  public var picture = MarblePicture(lanes: [])

  /// Whether every expectation held.
  public var passed: Bool { mismatches.isEmpty }

  /// What record mode writes for the wrong rows: each `gets` row's actual marble, each source's
  /// actual subscriptions — or why one of them cannot be written.
  package var recording: Result<[LiteralRewrite.TableRecord], LiteralRewrite.Refusal> = .success(
    [])

  /// The table as run (``text``).
  public var description: String { text }
}

extension MarbleTable {
  /// Runs the table: builds its sources, applies `pipeline`, subscribes each subscriber as its `sub`
  /// row says, runs the scheduler, and compares every `gets` and `subs` row with what happened.
  ///
  /// - Parameters:
  ///   - values: What the value characters stand for.
  ///   - error: What `#` stands for.
  ///   - tick: The length of one frame.
  ///   - pipeline: The operator under test, applied to the table's sources.
  /// - Returns: The report.
  /// - Throws: ``MarbleSyntaxError`` at the row and column of a marble that cannot be read, or of a
  ///   row that contradicts another (a source declared twice, two `sub` rows for one subscriber).
  public func run<
    Value: Sendable & Equatable, Failure: Error & Equatable, Output: SignalProtocol,
    Key: MarbleValueKey
  >(
    values: [Key: Value], error: Failure, tick: Duration = .milliseconds(1),
    pipeline: (TableSources<Value, Failure>) -> Output
  ) throws(MarbleSyntaxError) -> TableReport
  where Output.Value == Value, Output.Failure == Failure {
    try run(
      values: try Marble.characterKeyed(values), orError: error, tick: tick, pipeline: pipeline)
  }

  /// Runs the table, whose `#` is a `TestError()` when `Failure` is ``TestError``; for any other
  /// failure type a `#` is a mistake (for `Never`, the sources cannot fail at all).
  ///
  /// - Parameters:
  ///   - values: What the value characters stand for.
  ///   - tick: The length of one frame.
  ///   - pipeline: The operator under test, applied to the table's sources.
  /// - Returns: The report.
  /// - Throws: ``MarbleSyntaxError`` at the row and column of a marble that cannot be read.
  public func run<
    Value: Sendable & Equatable, Failure: Error & Equatable, Output: SignalProtocol,
    Key: MarbleValueKey
  >(
    values: [Key: Value], tick: Duration = .milliseconds(1),
    pipeline: (TableSources<Value, Failure>) -> Output
  ) throws(MarbleSyntaxError) -> TableReport
  where Output.Value == Value, Output.Failure == Failure {
    try run(
      values: try Marble.characterKeyed(values), orError: Marble.defaultError(Failure.self),
      tick: tick, pipeline: pipeline)
  }

  /// Runs the table; a `nil` `error` makes a `#` in it a mistake.
  package func run<
    Value: Sendable & Equatable, Failure: Error & Equatable, Output: SignalProtocol
  >(
    values: [Character: Value], orError error: Failure?, tick: Duration,
    pipeline: (TableSources<Value, Failure>) -> Output
  ) throws(MarbleSyntaxError) -> TableReport
  where Output.Value == Value, Output.Failure == Failure {
    let scheduler = TestScheduler(tick: tick)
    func events(_ row: Row) throws(MarbleSyntaxError) -> [Recorded<Event<Value, Failure>>] {
      try row.events(values: values, error: error, tick: tick)
    }
    func subscription(_ row: Row) throws(MarbleSyntaxError) -> Subscription {
      try row.subscription(tick: tick)
    }

    // Sources, in the order declared.
    var signals: [String: TestSignal<Value, Failure>] = [:]
    for row in rows where row.kind.isSource {
      guard signals[row.label] == nil else {
        throw row.error("the source '\(row.label)' is declared twice", at: 1)
      }
      let script = try events(row)
      signals[row.label] = TestSignal(
        kind: row.kind == .cold ? .cold : .hot, events: script, scheduler: scheduler)
    }
    let sources = TableSources(scheduler: scheduler, signals: signals)
    let signal = pipeline(sources)

    // Subscribers, in the order they first appear.
    var subscribers: [String: TestSubscriber<Value, Failure>] = [:]
    var subscribeRows: [String: Row] = [:]
    for row in rows where row.kind == .sub {
      guard subscribeRows[row.label] == nil else {
        throw row.error("the subscriber '\(row.label)' has two sub rows", at: 1)
      }
      subscribeRows[row.label] = row
      let times = try subscription(row)
      subscribers[row.label] = scheduler.record(
        signal, subscribeAt: times.subscribed, disposeAt: times.disposed)
    }
    for row in rows where row.kind == .gets && subscribers[row.label] == nil {
      subscribers[row.label] = scheduler.record(signal)
    }

    scheduler.run()

    var mismatches: [String] = scheduler.takeUnreportedFailures().map { "\($0)" }
    if !sources.unknownLabels.isEmpty {
      mismatches.append(
        "the pipeline asked for \(sources.unknownLabels.map { "'\($0)'" }.joined(separator: ", ")), "
          + "but the table declares only \(sources.knownLabels.joined(separator: ", "))")
    }
    let legend = Legend<Value, Failure>(values: values)
    let describe = Marble.describer(values)
    var lanes: [MarbleLane] = []
    var firstDifference: Int?
    func noteDifference(_ frame: Int) { firstDifference = min(firstDifference ?? frame, frame) }
    var output: [String] = []
    // The marbles printed for actual rows, for the one-frame group note.
    var printed: [Substring] = []
    var lastSubsRow: [String: Int] = [:]
    for (index, row) in rows.enumerated() where row.kind == .subs { lastSubsRow[row.label] = index }
    var recording: Result<[LiteralRewrite.TableRecord], LiteralRewrite.Refusal> = .success([])
    func note(_ record: Result<LiteralRewrite.TableRecord, LiteralRewrite.Refusal>) {
      guard case .success(let records) = recording else { return }
      recording = record.map { records + [$0] }
    }

    for (index, row) in rows.enumerated() {
      output.append(row.sourceLine)
      switch row.kind {
      case .gets:
        let expected = try events(row)
        let actual = subscribers[row.label]!.events
        let diff = EventListDiff(expected: expected, actual: actual)
        lanes.append(
          MarbleLane(
            title: diff == nil ? row.label : "\(row.label) (expected)",
            role: diff == nil ? .actual : .expected, events: expected, describe: describe))
        guard let diff else { continue }
        lanes.append(
          MarbleLane(title: "\(row.label) (was)", role: .actual, events: actual, describe: describe)
        )
        noteDifference(diff.tick)
        // A long actual row is cut a window's width after the difference.
        let diagram = FailureMessage.diagram(actual, values: values, tick: tick)
        let end =
          MarbleColumns.column(
            ofFrame: diff.tick, in: diagram.marbles, tick: MarbleTime.tickAttoseconds(tick))
          + MessageBounds.reach
        let marbles =
          diagram.marbles.count > end + 1
          ? diagram.marbles.prefix(end) + "…" : Substring(diagram.marbles)
        printed.append(marbles)
        output.append(
          row.wasLine(
            marbles + Self.legendSuffix(MessageBounds.legend(diagram.legend, visible: nil)),
            axis: timeAxisColumn))
        output.append(
          row.caretLine(
            atFrame: diff.tick, axis: timeAxisColumn, tick: MarbleTime.tickAttoseconds(tick)))
        mismatches.append(legend.sentence(row.label, diff))
        note(
          RecordedMarble.events(actual, values: values, error: error, tick: tick).map {
            // A row needs a marble: nothing at all is one idle frame.
            .row(line: row.line, marble: $0.isEmpty ? "-" : $0)
          })
      case .subs:
        // Compare a source's whole log once, under its last subs row.
        guard lastSubsRow[row.label] == index, let source = signals[row.label] else { continue }
        var expected: [Subscription] = []
        for subsRow in rows where subsRow.kind == .subs && subsRow.label == row.label {
          expected.append(try subscription(subsRow))
        }
        let actual = source.subscriptions
        let diff = SubscriptionListDiff(expected: expected, actual: actual)
        lanes.append(
          MarbleLane(
            title: diff == nil ? "\(row.label) subs" : "\(row.label) subs (expected)",
            role: .subscriptions, subscriptions: expected))
        guard let diff else { continue }
        note(
          .success(
            .subscriptions(
              label: row.label,
              lines: rows.filter { $0.kind == .subs && $0.label == row.label }.map(\.line),
              marbles: RecordedMarble.subscriptions(actual, tick: tick))))
        lanes.append(
          MarbleLane(title: "\(row.label) subs (was)", role: .subscriptions, subscriptions: actual))
        noteDifference(Self.firstDifferingFrame(expected, actual))
        for subscription in actual.prefix(MessageBounds.listLimit) {
          let drawn = MarblePrinter.subscriptionDiagram(
            subscription, tick: MarbleTime.tickAttoseconds(tick), longestDashRun: .max)
          output.append(row.wasLine(drawn, axis: timeAxisColumn))
        }
        if actual.count > MessageBounds.listLimit {
          output.append(
            row.wasLine(
              "… and \(actual.count - MessageBounds.listLimit) more subscriptions",
              axis: timeAxisColumn))
        }
        if actual.isEmpty { output.append(row.wasLine("(never subscribed)", axis: timeAxisColumn)) }
        output.append(
          String(repeating: " ", count: timeAxisColumn - 1)
            + String(repeating: " ", count: Self.firstDifferingFrame(expected, actual)) + "^")
        mismatches.append("\(row.label): \(diff.summary)")
      case .hot, .send, .cold:
        lanes.append(
          MarbleLane(
            title: "\(row.label) (\(row.kind.rawValue))", role: .source,
            events: signals[row.label]?.events ?? [], describe: describe))
      case .sub:
        if let times = try? subscription(row) {
          lanes.append(
            MarbleLane(
              title: "\(row.label) subscribes", role: .subscriptions, subscriptions: [times]))
        }
      }
    }
    if !mismatches.isEmpty {
      output += FailureMessage.oneFrameGroupNote(printed: printed).map {
        $0.trimmingMarbleAlignment
      }
      output.append("")
      output.append(contentsOf: mismatches)
    }
    var report = TableReport(
      mismatches: mismatches, text: output.joined(separator: "\n"),
      actual: actualTable(
        subscribers: subscribers, sources: signals, values: values, tick: tick))
    report.picture = MarblePicture(
      lanes: lanes, firstDifference: firstDifference, notes: mismatches.isEmpty ? [] : mismatches)
    report.recording = recording
    return report
  }
}

extension MarbleTable.Kind {
  /// Whether the row declares a source (`hot`, `send` or `cold`).
  public var isSource: Bool { self == .hot || self == .send || self == .cold }
}

extension MarbleTable.Row {
  func error(_ message: String, at marbleColumn: Int) -> MarbleSyntaxError {
    MarbleSyntaxError(
      message: message, line: line, column: self.marbleColumn + marbleColumn - 1,
      sourceLine: sourceLine)
  }

  /// An error in this row's marble (positioned within the marble alone), moved to the table.
  func relocated(_ error: MarbleSyntaxError) -> MarbleSyntaxError {
    self.error(error.message, at: error.column)
  }

  /// The events of this row's marble (a `hot`, `send`, `cold` or `gets` row), read with `values`
  /// and `error` for `#` (`nil` makes a `#` a mistake).
  ///
  /// - Throws: ``MarbleSyntaxError`` at the mistake's line and column in the table.
  func events<Value, Failure: Error>(
    values: [Character: Value], error: Failure?, tick: Duration
  ) throws(MarbleSyntaxError) -> [Recorded<Event<Value, Failure>>] {
    do {
      return try Marble.parse(
        marble, values: values, error: error, tick: tick, allowsSubscriptionPoint: false,
        position: .start)
    } catch {
      throw relocated(error)
    }
  }

  /// The subscription this row's marble (a `sub` or `subs` row) draws.
  ///
  /// - Throws: ``MarbleSyntaxError`` at the mistake's line and column in the table.
  func subscription(tick: Duration) throws(MarbleSyntaxError) -> Subscription {
    do {
      return try Marble.parseSubscription(marble, tick: tick)
    } catch {
      throw relocated(error)
    }
  }

  /// `was` in the kind column, `drawn` on the time axis.
  func wasLine(_ drawn: String, axis: Int) -> String {
    let lead = String(repeating: " ", count: max(0, axis - 6))
    return lead + "was  " + drawn
  }

  /// A caret under `frame` of this row's marble, whose frames last `tick` attoseconds.
  func caretLine(atFrame frame: Int, axis: Int, tick: Int128) -> String {
    String(
      repeating: " ",
      count: axis - 1 + MarbleColumns.column(ofFrame: frame, in: marble, tick: tick)) + "^"
  }
}

extension Marble {
  /// Every ASCII letter and digit standing for itself as a `String`: the values of a marble or table
  /// written without a `values:` map.
  public static let characterValues: [Character: String] = Dictionary(
    uniqueKeysWithValues: ("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
      .map { ($0, String($0)) })
}
