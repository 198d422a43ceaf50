public import MarbleTesting
import Signals

/// Asserts that a higher-order signal sent inner signals at the frames a marble draws, each
/// sending what its inner marble draws, with values and an error of your own.
///
/// Each value character of `marbles` stands for an inner signal, drawn by its entry in `inner`;
/// an inner marble's frames count from the frame the inner signal was sent at, as in RxJS's
/// `expectObservable(outer).toBe("--a--b|", { a: cold("-x|"), b: cold("--y|") })`:
///
/// ```swift
/// let windows = scheduler.recordHigherOrder(signalOfSignals)
/// scheduler.run()
/// assertMarbles(
///   windows, "--a--b|", inner: ["a": "-x|", "b": "--y|"], values: ["x": 1, "y": 2],
///   error: NetworkError.offline)
/// ```
///
/// When an inner signal differs, the failure names it and draws its expected and actual rows under
/// the frame it was sent at:
///
///     inner signal `b` sent at frame 5 differs at its frame 1
///       outer     --a--b|
///       expected       --y|
///       actual         -y|
///                       ^ got unexpected next("y") at frame 1; it was expected at frame 2
///
/// When the outer events differ, the outer rows are drawn with each inner signal as the key of
/// the inner marble it matches, or a new letter, and a `where` legend gives each one's marble.
///
/// - Parameters:
///   - subscriber: The recorder, from ``/MarbleTesting/TestScheduler/recordHigherOrder(_:subscribeAt:disposeAt:)``.
///   - marbles: The outer events (no `^`); each value character is a key of `inner`.
///   - inner: The marble of each inner signal (no `^`), its frames counting from the frame it was
///     sent at.
///   - values: What the inner marbles' value characters stand for.
///   - error: What `#` stands for, in the outer marble and the inner ones.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertMarbles<
  Value: Equatable & Sendable, Failure: Error & Equatable, Key: MarbleValueKey
>(
  _ subscriber: HigherOrderTestSubscriber<Value, Failure>, _ marbles: String,
  inner: [Character: String], values: [Key: Value], error: Failure,
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  SourceSite(fileID: fileID, filePath: filePath, line: line, column: column).reportAssertion(
    higherOrderFailure(subscriber, marbles, inner: inner, values: values, error: error),
    on: subscriber.core)
}

/// The failure message for a higher-order recorder that did not receive what `marbles` and `inner`
/// draw (or whose marbles cannot be read), or `nil`; shared by `assertMarbles` and
/// `expect(…).toBe(…, inner:)`.
func higherOrderFailure<
  Value: Equatable & Sendable, Failure: Error & Equatable, Key: MarbleValueKey
>(
  _ subscriber: HigherOrderTestSubscriber<Value, Failure>, _ marbles: String,
  inner: [Character: String], values: [Key: Value], error: Failure?
) -> String? {
  do {
    return try FailureMessage.higherOrderMarbles(
      expectedMarble: marbles, inner: inner, actual: subscriber.events,
      values: try Marble.characterKeyed(values, for: marbles), orError: error,
      tick: subscriber.core.tick)
  } catch {
    return "marble cannot be read: \(error)"
  }
}

/// Asserts that a higher-order signal sent inner signals at the frames a marble draws, each
/// sending what its inner marble draws; a `#` is a `TestError()` when the signals fail with
/// ``/MarbleTesting/TestError``, needs `error:` for any other failure type, and is a mistake for `Never`.
///
/// - Parameters:
///   - subscriber: The recorder.
///   - marbles: The outer events; each value character is a key of `inner`.
///   - inner: The marble of each inner signal, its frames counting from the frame it was sent at.
///   - values: What the inner marbles' value characters stand for.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertMarbles<
  Value: Equatable & Sendable, Failure: Error & Equatable, Key: MarbleValueKey
>(
  _ subscriber: HigherOrderTestSubscriber<Value, Failure>, _ marbles: String,
  inner: [Character: String], values: [Key: Value],
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  SourceSite(fileID: fileID, filePath: filePath, line: line, column: column).reportAssertion(
    higherOrderFailure(
      subscriber, marbles, inner: inner, values: values,
      error: Marble.defaultError(Failure.self)),
    on: subscriber.core)
}

/// Asserts that a higher-order signal of strings sent inner signals at the frames a marble draws,
/// each sending what its inner marble draws, each value character standing for itself; a `#` is
/// as in ``assertMarbles(_:_:inner:values:fileID:filePath:line:column:)``.
///
/// ```swift
/// let groups = scheduler.recordHigherOrder(source.groupBy { $0.lowercased() })
/// scheduler.run()
/// assertMarbles(groups, "-a-b-----|", inner: ["a": "a---A---|", "b": "b---B-|"])
/// ```
///
/// - Parameters:
///   - subscriber: The recorder.
///   - marbles: The outer events; each value character is a key of `inner`.
///   - inner: The marble of each inner signal, its frames counting from the frame it was sent at.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertMarbles<Failure: Error & Equatable>(
  _ subscriber: HigherOrderTestSubscriber<String, Failure>, _ marbles: String,
  inner: [Character: String],
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  assertMarbles(
    subscriber, marbles, inner: inner, values: Marble.characterValues, fileID: fileID,
    filePath: filePath, line: line, column: column)
}
