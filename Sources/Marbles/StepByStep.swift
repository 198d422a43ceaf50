public import MarbleTesting
public import Signals

/// Step-by-step assertions, in Turbine's style: take the next event, say what it must be, take
/// the next — each step driving the recorder's scheduler in virtual time until an event arrives.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let results = scheduler.record(try scheduler.cold("--a---b|"))
/// #expect(results.nextValue() == "a")   // now == 2
/// #expect(results.nextValue() == "b")   // now == 6
/// results.expectCompletion()            // now == 7
/// ```
///
/// They work on every recorder — of a signal, an `AsyncSequence` (also `Observations`), a
/// publisher — from synchronous and asynchronous tests, on the main actor or not, in Swift Testing
/// and XCTest. A step that cannot be satisfied fails at its line and returns (`nil` where it
/// returns a value): it says what came instead, and when, or that nothing more will come because
/// the scheduler ran out of work or stopped at its step limit. It never waits in real time.
///
/// Exhaustive, as Turbine is: once the test has taken an event step by step, every event must be
/// taken, or the test must end with ``cancelAndIgnoreRemainingEvents(fileID:filePath:line:column:)``;
/// a recorder released with events never taken fails the test, naming them. `events`, `values`,
/// marbles and tables keep working on the same recorder.
extension TestSubscriber {
  /// The oldest event not taken yet. If there is none, drives the scheduler — every action and
  /// ready job of each tick, as `advance` does — until one arrives, and stops at that tick, so
  /// `scheduler.now` is the event's tick.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  /// - Returns: The event, or `nil` — and a failure at the caller's line — if none will come.
  @discardableResult
  public func nextEvent(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> Event<Value, Failure>? {
    let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return take(at: site, asking: "nextEvent()", for: "an event")?.value
  }

  /// The next value: ``nextEvent(fileID:filePath:line:column:)``, which must be `.next`.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  /// - Returns: The value, or `nil` — and a failure at the caller's line — if the next event is
  ///   not a value or none will come.
  @discardableResult
  public func nextValue(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> Value? {
    let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return nextValue(at: site, asking: "nextValue()")
  }

  /// Takes the next event, which must be the completion.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  public func expectCompletion(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let event = take(at: site, asking: "expectCompletion()", for: "the completion") else {
      return
    }
    guard case .completed = event.value else {
      return site.report(Self.mismatch("expectCompletion()", "the completion", got: event))
    }
  }

  /// Takes the next event, which must be a failure.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  /// - Returns: The failure, or `nil` — and a failure at the caller's line — if the next event
  ///   is not a failure or none will come.
  @discardableResult
  public func expectFailure(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> Failure? {
    let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let event = take(at: site, asking: "expectFailure()", for: "a failure") else {
      return nil
    }
    guard case .error(let failure) = event.value else {
      site.report(Self.mismatch("expectFailure()", "a failure", got: event))
      return nil
    }
    return failure
  }

  /// Takes `count` values, each of which must be a value; stops at the first step that fails.
  ///
  /// - Parameters:
  ///   - count: How many values to take.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  public func skip(
    _ count: Int, fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    for index in 0..<max(0, count) {
      let call = "skip(\(count)), taking value \(index + 1) of \(count),"
      guard nextValue(at: site, asking: call) != nil else { return }
    }
  }

  /// Fails if an event is there that the test has not taken. Never drives the scheduler.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  public func expectNoEvents(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    noteStep(at: site.schedulerSite)
    let untaken = untakenEvents
    guard let first = untaken.first else { return }
    site.report(
      "expectNoEvents() found \(Self.describe(first)) not taken yet"
        + (untaken.count > 1 ? " (and \(untaken.count - 1) more)" : ""))
  }

  /// Disposes the recording at the current tick, and stops requiring the test to take the events
  /// left: the recorder is no longer checked for events never taken.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  public func cancelAndIgnoreRemainingEvents(
    fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) {
    cancelSteps()
  }

  // MARK: Steps

  /// A value, or `nil` after reporting what came instead or that none will come.
  private func nextValue(at site: SourceSite, asking call: String) -> Value? {
    guard let event = take(at: site, asking: call, for: "a value") else { return nil }
    guard case .next(let value) = event.value else {
      site.report(Self.mismatch(call, "a value", got: event))
      return nil
    }
    return value
  }

  /// The oldest event not taken yet, driving the scheduler until one arrives; `nil` after
  /// reporting at `site` that none will come.
  private func take(at site: SourceSite, asking call: String, for wanted: String)
    -> Recorded<Event<Value, Failure>>?
  {
    noteStep(at: site.schedulerSite)
    if let event = takeEvent() { return event }
    let result = core.run { [self] in hasUntakenEvent }
    site.reportFailures(of: core)
    if let event = takeEvent() { return event }
    let why =
      switch result.failure?.kind {
      case .stepLimitExceeded?: "the scheduler stopped at its step limit at tick \(result.now)"
      case .some: "the scheduler stopped at tick \(result.now)"
      case nil: "the scheduler ran out of work at tick \(result.now)"
      }
    site.report(
      "\(call) expected \(wanted), but none will come: \(why), and the recorder has no event "
        + "left to take")
    return nil
  }

  /// `nextValue() expected a value, got completion at tick 7`.
  private static func mismatch(
    _ call: String, _ wanted: String, got event: Recorded<Event<Value, Failure>>
  ) -> String {
    "\(call) expected \(wanted), got \(describe(event))"
  }

  /// `next("a") at tick 3`, `completion at tick 7`, `the failure TestError("x") at tick 4`.
  private static func describe(_ event: Recorded<Event<Value, Failure>>) -> String {
    let what =
      switch event.value {
      case .next: MessageBounds.valueText("\(event.value)")
      case .completed: "completion"
      case .error(let failure): "the failure " + MessageBounds.valueText("\(failure)")
      }
    return "\(what) at tick \(event.time)"
  }
}
