#if canImport(Combine) || canImport(OpenCombineShim)
  #if canImport(Combine)
    public import Combine
  #else
    public import OpenCombineShim
  #endif
  public import MarbleTesting
  public import Marbles
  import Signals

  extension TestScheduler {
    /// Subscribes a recorder to a Combine publisher at tick `subscribeAt`, with unlimited demand,
    /// and cancels at `disposeAt`: each value is recorded at the tick it arrives, then the end.
    ///
    /// ```swift
    /// let recorder = scheduler.record(input.publisher.debounce(for: 0.002, scheduler: scheduler.combine))
    /// scheduler.run()
    /// assertMarbles(recorder, "---a----c-|")
    /// ```
    ///
    /// It records `Signal(publisher)`, so `assertMarbles`, `expect` and tables treat it like any
    /// recorded signal.
    ///
    /// - Parameters:
    ///   - publisher: The publisher to subscribe to.
    ///   - subscribeAt: The tick to subscribe at.
    ///   - disposeAt: The tick to cancel at, or `nil` to let it run to its end.
    /// - Returns: The recorder.
    public func record<P: Publisher>(
      _ publisher: P, subscribeAt: Int = 0, disposeAt: Int? = nil
    ) -> TestSubscriber<P.Output, P.Failure> where P.Output: Sendable {
      record(Signal(publisher), subscribeAt: subscribeAt, disposeAt: disposeAt)
    }

    /// Subscribes to a Combine publisher as `subscription` says and returns an expectation to
    /// state with `toBe(…)`, checked by `flush()` — the same as `expect(signal)`, with every
    /// `toBe` overload (values, error, `Never`).
    ///
    /// ```swift
    /// scheduler.expect(input.publisher.throttle(for: 0.003, scheduler: scheduler.combine, latest: true))
    ///   .toBe("-a--c--e|")
    /// scheduler.flush()
    /// ```
    ///
    /// - Parameters:
    ///   - publisher: The publisher to record.
    ///   - subscription: When to subscribe (`^`) and cancel (`!`).
    ///   - fileID: The caller's file ID (filled in for you).
    ///   - filePath: The caller's file path (filled in for you).
    ///   - line: The caller's line (filled in for you).
    ///   - column: The caller's column (filled in for you).
    /// - Returns: The expectation; a failing one is reported at this call's line.
    public func expect<P: Publisher>(
      _ publisher: P, subscription: String = "^",
      fileID: String = #fileID, filePath: StaticString = #filePath,
      line: UInt = #line, column: UInt = #column
    ) -> SignalExpectation<P.Output, P.Failure> where P.Output: Sendable {
      expect(
        Signal(publisher), subscription: subscription, fileID: fileID, filePath: filePath,
        line: line, column: column)
    }
  }

  /// Runs an expectation table whose pipeline is a Combine publisher built from the table's
  /// sources (`$0["src"].publisher…`), with values and an error of your own; see `assertTable`
  /// for signals.
  ///
  /// ```swift
  /// assertTable("""
  ///   src  hot   -a-b----c--|
  ///   out  gets  ----b------(c|)
  ///   """) { $0["src"].publisher.debounce(for: 0.003, scheduler: $0.scheduler.combine) }
  /// ```
  ///
  /// A table runs on a scheduler of its own: give the pipeline its sources' `scheduler`.
  ///
  /// - Parameters:
  ///   - table: The scenario, one labelled row per line.
  ///   - values: What the value characters stand for.
  ///   - error: What `#` stands for.
  ///   - tick: The length of one frame.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  ///   - pipeline: The publisher under test, built from the table's sources.
  public func assertTable<
    Value: Sendable & Equatable, Failure: Error & Equatable, P: Publisher, Key: MarbleValueKey
  >(
    _ table: String, values: [Key: Value], error: Failure, tick: Duration = .milliseconds(1),
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    pipeline: (TableSources<Value, Failure>) -> P
  ) where P.Output == Value, P.Failure == Failure {
    assertTable(
      table, values: values, error: error, tick: tick, fileID: fileID, filePath: filePath,
      line: line, column: column, pipeline: { Signal(pipeline($0)) })
  }

  /// ``assertTable(_:values:error:tick:fileID:filePath:line:column:pipeline:)`` for a publisher
  /// whose `#` is a `TestError()` when it fails with `TestError`; for any other failure type a
  /// `#` is a mistake (for `Never`, it cannot fail at all).
  ///
  /// - Parameters:
  ///   - table: The scenario, one labelled row per line.
  ///   - values: What the value characters stand for.
  ///   - tick: The length of one frame.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  ///   - pipeline: The publisher under test, built from the table's sources.
  public func assertTable<
    Value: Sendable & Equatable, Failure: Error & Equatable, P: Publisher, Key: MarbleValueKey
  >(
    _ table: String, values: [Key: Value], tick: Duration = .milliseconds(1),
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    pipeline: (TableSources<Value, Failure>) -> P
  ) where P.Output == Value, P.Failure == Failure {
    assertTable(
      table, values: values, tick: tick, fileID: fileID, filePath: filePath, line: line,
      column: column, pipeline: { Signal(pipeline($0)) })
  }

  /// ``assertTable(_:values:tick:fileID:filePath:line:column:pipeline:)-(_,_,_,_,_,_,_,(TableSources<Value,Failure>)->P)`` for a publisher of
  /// strings, each value character standing for itself.
  ///
  /// - Parameters:
  ///   - table: The scenario, one labelled row per line.
  ///   - tick: The length of one frame.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  ///   - pipeline: The publisher under test, built from the table's sources.
  public func assertTable<Failure: Error & Equatable, P: Publisher>(
    _ table: String, tick: Duration = .milliseconds(1),
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    pipeline: (TableSources<String, Failure>) -> P
  ) where P.Output == String, P.Failure == Failure {
    assertTable(
      table, tick: tick, fileID: fileID, filePath: filePath, line: line, column: column,
      pipeline: { Signal(pipeline($0)) })
  }

  /// An expectation table whose pipeline is a Combine publisher of strings that fails with
  /// `TestError`, with no `values:`: each value character stands for itself and `#` for
  /// `TestError()`.
  ///
  /// ```swift
  /// assertTable("""
  ///   src  hot   -a-b-#
  ///   out  gets  ---a-b-#
  ///   """) { $0["src"].publisher.delay(for: 0.002, scheduler: $0.scheduler.combine) }
  /// ```
  ///
  /// - Parameters:
  ///   - table: The scenario, one labelled row per line.
  ///   - tick: The length of one frame.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  ///   - pipeline: The publisher under test, built from the table's sources.
  public func assertTable<P: Publisher>(
    _ table: String, tick: Duration = .milliseconds(1),
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    pipeline: (TableSources<String, TestError>) -> P
  ) where P.Output == String, P.Failure == TestError {
    assertTable(
      table, tick: tick, fileID: fileID, filePath: filePath, line: line, column: column,
      pipeline: { Signal(pipeline($0)) })
  }

  /// An expectation table whose pipeline is a Combine publisher of strings that fails with
  /// `any Error` (`tryMap` makes one), with no `values:`: a `#` matches a thrown `TestError`.
  ///
  /// - Parameters:
  ///   - table: The scenario, one labelled row per line.
  ///   - tick: The length of one frame.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  ///   - pipeline: The publisher under test, built from the table's sources.
  public func assertTable<P: Publisher>(
    _ table: String, tick: Duration = .milliseconds(1),
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    pipeline: (TableSources<String, TestError>) -> P
  ) where P.Output == String, P.Failure == any Error {
    assertTable(
      table, tick: tick, fileID: fileID, filePath: filePath, line: line, column: column,
      pipeline: { Signal(pipeline($0)) })
  }

  /// ``assertTable(_:values:tick:fileID:filePath:line:column:pipeline:)`` for a publisher that
  /// fails with `any Error` (`tryMap` makes one): a `#` matches a thrown `TestError`.
  ///
  /// - Parameters:
  ///   - table: The scenario, one labelled row per line.
  ///   - values: What the value characters stand for.
  ///   - tick: The length of one frame.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  ///   - pipeline: The publisher under test, built from the table's sources.
  public func assertTable<Value: Sendable & Equatable, P: Publisher, Key: MarbleValueKey>(
    _ table: String, values: [Key: Value], tick: Duration = .milliseconds(1),
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column,
    pipeline: (TableSources<Value, TestError>) -> P
  ) where P.Output == Value, P.Failure == any Error {
    assertTable(
      table, values: values, tick: tick, fileID: fileID, filePath: filePath, line: line,
      column: column, pipeline: { Signal(pipeline($0)) })
  }
#endif
