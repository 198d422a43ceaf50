public import MarbleTesting
public import Signals

/// Asserts that a recorder received exactly these events at exactly these ticks.
///
/// ```swift
/// let subscriber = scheduler.record(signal)
/// scheduler.run()
/// assertEvents(subscriber, [.next(2, "a"), .completed(5)])
/// ```
///
/// On failure it reports, at the line of the call, both lists and the first difference in words:
///
///     recorded events differ at tick 4
///       expected  [next("a") @ 2, next("b") @ 4, completed @ 7]
///       actual    [next("a") @ 2, next("b") @ 5, completed @ 7]
///       expected next("b") at tick 4, got nothing; next("b") came at tick 5
///
/// It also reports, once, any failure the subscriber's scheduler recorded (a `run()` stopped at its
/// step limit by an endless timer), since the events are then incomplete.
///
/// - Parameters:
///   - subscriber: The recorder.
///   - expected: The events it must have received.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertEvents<Value: Equatable & Sendable, Failure: Error & Equatable>(
  _ subscriber: TestSubscriber<Value, Failure>,
  _ expected: [Recorded<Event<Value, Failure>>],
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  SourceSite(fileID: fileID, filePath: filePath, line: line, column: column).reportAssertion(
    FailureMessage.events(expected: expected, actual: subscriber.events), on: subscriber.core)
}

/// A recorder of a signal that cannot fail checked against a test signal's events that can: never
/// called — the compiler finds it instead of "requires the types 'TestError' and 'Never' be
/// equivalent", and its message is the fix. A marble drawn without `error:` and without a type
/// annotation fails with ``TestError``; Swift takes a `let`'s type from its declaration, never from
/// a later use.
@available(
  *, unavailable,
  message:
    "the recorder's signal cannot fail and these events fail with TestError (a marble drawn without `error:` and without a type annotation): declare it `let expected: TestSignal<String, Never> = try scheduler.hot(\"--a--b--\")`"
)
public func assertEvents<Value: Equatable & Sendable>(
  _ subscriber: TestSubscriber<Value, Never>,
  _ expected: [Recorded<Event<Value, TestError>>],
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  fatalError("unavailable")
}

/// Asserts that a test signal saw exactly these subscriptions.
///
/// ```swift
/// assertSubscriptions(source, [Subscription(0, 5)])   // subscribed once, at 0, until 5
/// ```
///
/// - Parameters:
///   - signal: The test signal whose subscription log is checked.
///   - expected: The subscriptions, in subscription order.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertSubscriptions<Value: Sendable, Failure: Error>(
  _ signal: TestSignal<Value, Failure>,
  _ expected: [Subscription],
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  SourceSite(fileID: fileID, filePath: filePath, line: line, column: column).reportAssertion(
    FailureMessage.subscriptions(expected: expected, actual: signal.subscriptions),
    on: signal.core)
}
