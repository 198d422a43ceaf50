public import MarbleTesting
public import Signals

/// Asserts a whole scenario drawn as an expectation table.
///
/// The table declares the sources, when each subscriber subscribes and disposes, what each must
/// receive and what subscriptions each source must have seen, all on one time axis; the trailing
/// closure applies the operator under test to the sources:
///
/// ```swift
/// assertTable("""
///   fetch  cold  ---r|
///   sub1   sub   ^--------
///   sub1   gets  ---r|
///   sub2   sub   -----^---
///   sub2   gets  -----(r|)
///   fetch  subs  ^---!
///   """) { $0["fetch"].replayLazily() }
/// ```
///
/// A failing table is reported at the call, reprinted with a `was` row of what actually happened
/// under every wrong row, a caret at the first differing frame, and one sentence per wrong row:
///
///     sub2   gets  ---r|
///             was  -----(r|)
///                     ^
///     sub2 missed `r` at frame 3 (it came at frame 5)
///
/// A table that cannot be read is reported with the row, the column and a caret. See ``/MarbleTesting/MarbleTable``
/// for the row syntax. Without `values:`, each value character stands for itself as a `String` and
/// `#` for `TestError()`.
///
/// - Parameters:
///   - table: The table.
///   - tick: The length of one frame (for time progressions and time-based operators).
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - pipeline: The operator under test, applied to the table's sources.
public func assertTable<Output: SignalProtocol>(
  _ table: String, tick: Duration = .milliseconds(1),
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  pipeline: (TableSources<String, TestError>) -> Output
) where Output.Value == String, Output.Failure == TestError {
  assertTable(
    table, values: Marble.characterValues, orError: TestError(), tick: tick,
    site: SourceSite(fileID: fileID, filePath: filePath, line: line, column: column),
    pipeline: pipeline)
}

/// Asserts a scenario drawn as an expectation table whose sources fail with `Failure` — `Never`
/// for sources that cannot fail — each value character standing for itself.
///
/// ```swift
/// assertTable("""
///   query  hot   -a-b-----c-|
///   sub    gets  -----b-----c|
///   """) { (sources: TableSources<String, Never>) in
///   sources["query"].debounce(.milliseconds(4), on: sources.scheduler)
/// }
/// ```
///
/// A `#` in the table needs a failure to stand for: it is a mistake unless `Failure` is
/// ``/MarbleTesting/TestError`` (use ``assertTable(_:values:error:tick:fileID:filePath:line:column:pipeline:)``
/// for any other).
///
/// - Parameters:
///   - table: The table (see ``/MarbleTesting/MarbleTable``).
///   - tick: The length of one frame.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - pipeline: The operator under test, applied to the table's sources.
public func assertTable<Failure: Error & Equatable, Output: SignalProtocol>(
  _ table: String, tick: Duration = .milliseconds(1),
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  pipeline: (TableSources<String, Failure>) -> Output
) where Output.Value == String, Output.Failure == Failure {
  assertTable(
    table, values: Marble.characterValues, orError: Marble.defaultError(Failure.self), tick: tick,
    site: SourceSite(fileID: fileID, filePath: filePath, line: line, column: column),
    pipeline: pipeline)
}

/// Asserts a scenario drawn as an expectation table, with values of your own; a `#` is as in
/// ``assertTable(_:tick:fileID:filePath:line:column:pipeline:)-(_,_,_,_,_,_,(TableSources<String,Failure>)->Output)``.
///
/// - Parameters:
///   - table: The table (see ``/MarbleTesting/MarbleTable``).
///   - values: What the value characters stand for.
///   - tick: The length of one frame.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - pipeline: The operator under test, applied to the table's sources.
public func assertTable<
  Value: Sendable & Equatable, Failure: Error & Equatable, Output: SignalProtocol,
  Key: MarbleValueKey
>(
  _ table: String, values: [Key: Value], tick: Duration = .milliseconds(1),
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  pipeline: (TableSources<Value, Failure>) -> Output
) where Output.Value == Value, Output.Failure == Failure {
  assertTable(
    table, values: values, orError: Marble.defaultError(Failure.self), tick: tick,
    site: SourceSite(fileID: fileID, filePath: filePath, line: line, column: column),
    pipeline: pipeline)
}

/// Asserts a scenario drawn as an expectation table, with values and an error of your own.
///
/// - Parameters:
///   - table: The table (see ``/MarbleTesting/MarbleTable``).
///   - values: What the value characters stand for.
///   - error: What `#` stands for.
///   - tick: The length of one frame.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - pipeline: The operator under test, applied to the table's sources.
public func assertTable<
  Value: Sendable & Equatable, Failure: Error & Equatable, Output: SignalProtocol,
  Key: MarbleValueKey
>(
  _ table: String, values: [Key: Value], error: Failure,
  tick: Duration = .milliseconds(1),
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  pipeline: (TableSources<Value, Failure>) -> Output
) where Output.Value == Value, Output.Failure == Failure {
  assertTable(
    table, values: values, orError: error, tick: tick,
    site: SourceSite(fileID: fileID, filePath: filePath, line: line, column: column),
    pipeline: pipeline)
}

/// Runs a table and reports its failure, or why it cannot be read, at `site`.
private func assertTable<
  Value: Sendable & Equatable, Failure: Error & Equatable, Output: SignalProtocol,
  Key: MarbleValueKey
>(
  _ table: String, values: [Key: Value], orError error: Failure?, tick: Duration,
  site: SourceSite, pipeline: (TableSources<Value, Failure>) -> Output
) where Output.Value == Value, Output.Failure == Failure {
  do {
    let report = try MarbleTable.parse(table)
      .run(
        values: try Marble.characterKeyed(values), orError: error, tick: tick, pipeline: pipeline)
    if !report.passed {
      let recorded = PendingRecording(
        site: RecordingSite(site: site, target: .table((try? report.recording.get()) ?? [])),
        marbles: report.recording.map { _ in [] }, replacing: [table])
      site.report(
        Finding(
          message: "table failed\n\(report.text)", picture: report.picture.svg(),
          recording: recorded))
    }
  } catch {
    site.report("table cannot be read: \(error)")
  }
}
