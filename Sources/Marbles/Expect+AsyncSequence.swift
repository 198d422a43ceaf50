public import MarbleTesting
public import Signals

extension TestScheduler {
  /// Iterates an `AsyncSequence` in a task this scheduler drives, as `subscription` says, and
  /// returns an expectation to state with `toBe(…)`, checked by `flush()` — RxJS's
  /// `expectObservable(…).toBe(…)` for async code.
  ///
  /// ```swift
  /// let input = try scheduler.hot("-a--b-c---|")
  /// scheduler.expect(input.values.debounce(for: .milliseconds(2), clock: scheduler.clock))
  ///   .toBe("---a----c-|")
  /// scheduler.flush()
  /// ```
  ///
  /// The first pull happens at the `^` (frame 0 by default), each element is recorded at the tick
  /// it arrives, and a `!` cancels the iteration at its tick (see
  /// ``/MarbleTesting/TestScheduler/record(_:subscribeAt:disposeAt:)->TestSubscriber<S.Element,S.Failure>``). A sequence that
  /// throws `any Error` is stated with the `toBe` overloads for it, where `#` matches a thrown
  /// ``/MarbleTesting/TestError``.
  ///
  /// - Parameters:
  ///   - sequence: The sequence to iterate.
  ///   - subscription: When to start (`^`) and cancel (`!`); `"^"` by default.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  /// - Returns: The expectation; a failing one is reported at this call's line.
  public func expect<S: AsyncSequence & Sendable>(
    _ sequence: S, subscription: String = "^",
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> SignalExpectation<S.Element, S.Failure> where S.Element: Sendable {
    expect(
      Signal(sequence), subscription: subscription, fileID: fileID, filePath: filePath,
      line: line, column: column)
  }
}

extension SignalExpectation where Failure == any Error {
  /// The recorded sequence must send what `marbles` draws; a `#` matches a thrown error whose
  /// ``/MarbleTesting/TestError/init(naming:)`` equals `error` (by default `TestError()`): a
  /// thrown `TestError` equal to it, or an error of your own named by type and description.
  ///
  /// ```swift
  /// scheduler.expect(prices).toBe("a--#", values: ["a": 42], error: TestError(naming: Offline()))
  /// ```
  ///
  /// A failure shows a different error's description under the rows.
  ///
  /// - Parameters:
  ///   - marbles: The expected events.
  ///   - values: What the value characters stand for.
  ///   - error: The ``/MarbleTesting/TestError`` a `#` stands for.
  public func toBe<Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value], error: TestError = TestError()
  )
  where Value: Equatable {
    let subscriber = subscriber
    let values = KeyedValues(values, for: marbles)
    let recording = RecordingSite(site: registration.site, target: .toBe, core: subscriber.core)
    registration.state {
      values.finding { values in
        marblesFailure(
          events: subscriber.testErrorEvents, tick: subscriber.core.tick, marbles,
          values: values, error: error, recording: recording)
      }
    }
  }

  /// The recorded sequence of strings must send what `marbles` draws, each value character
  /// standing for itself; a `#` matches a thrown error whose
  /// ``/MarbleTesting/TestError/init(naming:)`` equals `error`.
  ///
  /// - Parameters:
  ///   - marbles: The expected events.
  ///   - error: The ``/MarbleTesting/TestError`` a `#` stands for.
  public func toBe(_ marbles: String, error: TestError = TestError()) where Value == String {
    toBe(marbles, values: Marble.characterValues, error: error)
  }
}

/// Asserts that a recorder of a sequence that throws `any Error` received what a marble draws; a
/// `#` matches a thrown ``/MarbleTesting/TestError`` equal to `error` (any other error is shown as a `TestError`
/// naming it).
///
/// ```swift
/// let parsed = scheduler.record(lines.values.map { try parse($0) })   // throws any Error
/// scheduler.run()
/// assertMarbles(parsed, "-1-2-#", values: ["1": 1, "2": 2], error: TestError("bad line"))
/// ```
///
/// - Parameters:
///   - subscriber: The recorder.
///   - marbles: The events it must have received.
///   - values: What the value characters stand for.
///   - error: The ``/MarbleTesting/TestError`` a `#` stands for.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertMarbles<Value: Equatable & Sendable, Key: MarbleValueKey>(
  _ subscriber: TestSubscriber<Value, any Error>, _ marbles: String,
  values: [Key: Value], error: TestError = TestError(),
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
  site.reportAssertion(
    marblesFailure(
      events: subscriber.testErrorEvents, tick: subscriber.core.tick, marbles, values: values,
      error: error,
      recording: RecordingSite(site: site, target: .argument(1), core: subscriber.core)),
    on: subscriber.core)
}

/// Asserts that a recorder of strings from a sequence that throws `any Error` received what a
/// marble draws, each value character standing for itself; a `#` matches a thrown ``/MarbleTesting/TestError``
/// equal to `error`.
///
/// - Parameters:
///   - subscriber: The recorder.
///   - marbles: The events it must have received.
///   - error: The ``/MarbleTesting/TestError`` a `#` stands for.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertMarbles(
  _ subscriber: TestSubscriber<String, any Error>, _ marbles: String,
  error: TestError = TestError(),
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  assertMarbles(
    subscriber, marbles, values: Marble.characterValues, error: error, fileID: fileID,
    filePath: filePath, line: line, column: column)
}

/// `error` itself if it is a ``/MarbleTesting/TestError``, else a `TestError` naming its type and
/// description (``/MarbleTesting/TestError/init(naming:)``).
@Sendable private func asTestError(_ error: any Error) -> TestError {
  TestError(naming: error)
}

extension TestSubscriber where Failure == any Error {
  /// The events with each error as a ``/MarbleTesting/TestError``: itself if it is one, else one naming it.
  var testErrorEvents: [Recorded<Event<Value, TestError>>] {
    events.map { recorded in
      let event: Event<Value, TestError> =
        switch recorded.value {
        case .next(let value): .next(value)
        case .completed: .completed
        case .error(let error): .error(asTestError(error))
        }
      return Recorded(time: recorded.time, value: event)
    }
  }
}

/// Asserts a scenario drawn as an expectation table whose pipeline ends in a sequence or signal
/// that throws `any Error` — async code, typically `Signal(sequence)` — the sources failing with
/// ``/MarbleTesting/TestError``; a `#` in a `gets` row matches a thrown `TestError()`. Any other
/// error is compared as ``/MarbleTesting/TestError/init(naming:)`` names it, and a failure shows
/// both errors' descriptions under the rows; to expect an error of your own, map it in the
/// pipeline (`.mapError { _ in TestError() }`) or use `scheduler.expect(…).toBe(_:values:error:)`.
///
/// ```swift
/// assertTable(
///   """
///   query    hot   -a-b-c------d---|
///   results  gets  ----------x------(y|)
///   """, values: […], tick: .milliseconds(100)
/// ) { sources in
///   Signal(SearchModel(clock: sources.scheduler.clock, …).results(for: sources["query"].values))
/// }
/// ```
///
/// - Parameters:
///   - table: The table (see ``/MarbleTesting/MarbleTable``).
///   - values: What the value characters stand for.
///   - tick: The length of one frame.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - pipeline: The code under test, applied to the table's sources.
public func assertTable<Value: Sendable & Equatable, Output: SignalProtocol, Key: MarbleValueKey>(
  _ table: String, values: [Key: Value], tick: Duration = .milliseconds(1),
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  pipeline: (TableSources<Value, TestError>) -> Output
) where Output.Value == Value, Output.Failure == any Error {
  assertTable(
    table, values: values, error: TestError(), tick: tick, fileID: fileID, filePath: filePath,
    line: line, column: column
  ) { sources in
    pipeline(sources).mapError(asTestError)
  }
}

/// ``assertTable(_:values:tick:fileID:filePath:line:column:pipeline:)-(_,_,_,_,_,_,_,(TableSources<Value,Failure>)->Output)`` for a table of strings,
/// each value character standing for itself.
///
/// - Parameters:
///   - table: The table.
///   - tick: The length of one frame.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - pipeline: The code under test, applied to the table's sources.
public func assertTable<Output: SignalProtocol>(
  _ table: String, tick: Duration = .milliseconds(1),
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  pipeline: (TableSources<String, TestError>) -> Output
) where Output.Value == String, Output.Failure == any Error {
  assertTable(
    table, values: Marble.characterValues, tick: tick, fileID: fileID, filePath: filePath,
    line: line, column: column, pipeline: pipeline)
}
