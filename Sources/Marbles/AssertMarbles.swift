public import MarbleTesting
import Signals

/// Asserts that a recorder received what a marble draws, with values and an error of your own.
///
/// ```swift
/// assertMarbles(subscriber, "--a--b--|", values: ["a": 1, "b": 2], error: NetworkError.offline)
/// ```
///
/// Frame 0 is tick 0. On failure the expected and actual rows are reported one above the other,
/// with a caret under the first differing frame and the difference in words:
///
///     marbles differ at frame 4
///       expected  --a-b--|
///       actual    --a--b-|
///                     ^ expected next("b") at frame 4, got nothing; next("b") came at frame 5
///
/// Values that are not single characters are listed under a legend (`where a = User(id: 1)`). A
/// marble that cannot be read is reported with its column and a caret.
///
/// For a signal whose values are signals, record it with
/// ``/MarbleTesting/TestScheduler/recordHigherOrder(_:subscribeAt:disposeAt:)`` and give each inner
/// signal its own marble: `assertMarbles(groups, "-x-y-|", inner: ["x": "a--|", "y": "b|"])`.
///
/// - Parameters:
///   - subscriber: The recorder.
///   - marbles: The events it must have received (the RxJS marble dialect; no `^`).
///   - values: What the value characters stand for.
///   - error: What `#` stands for.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertMarbles<
  Value: Equatable & Sendable, Failure: Error & Equatable, Key: MarbleValueKey
>(
  _ subscriber: TestSubscriber<Value, Failure>, _ marbles: String,
  values: [Key: Value], error: Failure,
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
  site.reportAssertion(
    marblesFailure(
      subscriber, marbles, values: values, error: error,
      recording: RecordingSite(site: site, target: .argument(1), core: subscriber.core)),
    on: subscriber.core)
}

/// The failure message for a recorder that did not receive what `marbles` draws (or whose marble
/// cannot be read), or `nil`; shared by `assertMarbles` and `expect(…).toBe(…)`. A `nil` `error`
/// makes a `#` in `marbles` a mistake.
func marblesFailure<Value: Equatable & Sendable, Failure: Error & Equatable, Key: MarbleValueKey>(
  _ subscriber: TestSubscriber<Value, Failure>, _ marbles: String,
  values: [Key: Value], error: Failure?, recording: RecordingSite
) -> Finding? {
  marblesFailure(
    events: subscriber.events, tick: subscriber.core.tick, marbles, values: values, error: error,
    recording: recording)
}

/// The failure message for recorded `events` that differ from what `marbles` draws (or whose
/// marble cannot be read), or `nil`.
///
/// In record mode the marble of a failing expectation is rewritten in the source
/// (``RecordingSite``), and the failure says so.
func marblesFailure<Value: Equatable & Sendable, Failure: Error & Equatable, Key: MarbleValueKey>(
  events: [Recorded<Event<Value, Failure>>], tick: Duration, _ marbles: String,
  values: [Key: Value], error: Failure?, recording: RecordingSite
) -> Finding? {
  let keyed = Result { () throws(MarbleSyntaxError) in try Marble.characterKeyed(values) }
  let recorded = PendingRecording(
    site: recording,
    marbles: keyed.mapError { LiteralRewrite.Refusal("values: cannot be read: \($0)") }
      .flatMap { RecordedMarble.events(events, values: $0, error: error, tick: tick) }
      .map { [$0] }, replacing: [marbles])
  do {
    let values = try Marble.characterKeyed(values, for: marbles)
    let expected = try Marble.parse(
      marbles, values: values, error: error, tick: tick, allowsSubscriptionPoint: false,
      position: .start)
    guard
      let message = FailureMessage.marbles(
        expectedMarble: marbles, expected: expected, actual: events, values: values, tick: tick)
    else { return nil }
    return Finding(
      message: message,
      picture: Marble.svg(expected: expected, actual: events, values: values, title: marbles),
      recording: recorded)
  } catch {
    return Finding(message: "marble cannot be read: \(error)", recording: recorded)
  }
}

/// Asserts that a recorder received what a marble draws.
///
/// A `#` is a `TestError()` when the signal fails with ``/MarbleTesting/TestError``. For any other failure type a
/// marble with `#` needs the `error:` argument, and for a signal that cannot fail
/// (`Failure == Never`) a `#` is a mistake:
///
/// ```swift
/// let clicks: TestSignal<Int, Never> = try scheduler.hot("-1-2|", values: ["1": 1, "2": 2])
/// let recorder = scheduler.record(clicks.map { $0 * 10 })
/// scheduler.run()
/// assertMarbles(recorder, "-x-y|", values: ["x": 10, "y": 20])
/// ```
///
/// - Parameters:
///   - subscriber: The recorder.
///   - marbles: The events it must have received.
///   - values: What the value characters stand for.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertMarbles<
  Value: Equatable & Sendable, Failure: Error & Equatable, Key: MarbleValueKey
>(
  _ subscriber: TestSubscriber<Value, Failure>, _ marbles: String,
  values: [Key: Value],
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
  site.reportAssertion(
    marblesFailure(
      subscriber, marbles, values: values, error: Marble.defaultError(Failure.self),
      recording: RecordingSite(site: site, target: .argument(1), core: subscriber.core)),
    on: subscriber.core)
}

/// Asserts that a recorder of strings received what a marble draws, each value character standing
/// for itself.
///
/// ```swift
/// assertMarbles(subscriber, "--a--b--|")
/// ```
///
/// - Parameters:
///   - subscriber: The recorder.
///   - marbles: The events it must have received.
///   - error: What `#` stands for.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertMarbles<Failure: Error & Equatable>(
  _ subscriber: TestSubscriber<String, Failure>, _ marbles: String, error: Failure,
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  assertMarbles(
    subscriber, marbles, values: Marble.characterValues, error: error, fileID: fileID,
    filePath: filePath, line: line, column: column)
}

/// Asserts that a recorder of strings received what a marble draws, each value character standing
/// for itself; a `#` is as in ``assertMarbles(_:_:values:fileID:filePath:line:column:)``.
///
/// - Parameters:
///   - subscriber: The recorder.
///   - marbles: The events it must have received.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertMarbles<Failure: Error & Equatable>(
  _ subscriber: TestSubscriber<String, Failure>, _ marbles: String,
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  assertMarbles(
    subscriber, marbles, values: Marble.characterValues, fileID: fileID, filePath: filePath,
    line: line, column: column)
}

/// Asserts a test signal's subscription log with one subscription marble per subscription.
///
/// ```swift
/// assertSubscriptions(fetch, "^---!")              // subscribed once, at 0, until 4
/// assertSubscriptions(hot, "^-----!", "--^--!")    // two subscriptions, in order
/// ```
///
/// - Parameters:
///   - signal: The test signal.
///   - marbles: One subscription marble (`^` subscribe, `!` dispose) per expected subscription;
///     none means "never subscribed".
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
public func assertSubscriptions<Value: Sendable, Failure: Error>(
  _ signal: TestSignal<Value, Failure>, _ marbles: String...,
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) {
  let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
  site.reportAssertion(
    subscriptionsFailure(
      signal, marbles,
      recording: RecordingSite(site: site, target: .arguments(from: 1), core: signal.core)),
    on: signal.core)
}

/// The failure message for a subscription log that differs from `marbles` (or whose marbles cannot
/// be read), or `nil`; shared by `assertSubscriptions` and `expectSubscriptions(…).toBe(…)`.
func subscriptionsFailure<Value: Sendable, Failure: Error>(
  _ signal: TestSignal<Value, Failure>, _ marbles: [String], recording: RecordingSite
) -> Finding? {
  let tick = signal.core.tick
  let recorded = PendingRecording(
    site: recording,
    marbles: .success(RecordedMarble.subscriptions(signal.subscriptions, tick: tick)),
    replacing: marbles)
  do {
    var expected: [Subscription] = []
    for marble in marbles { expected.append(try Marble.parseSubscription(marble, tick: tick)) }
    return FailureMessage.subscriptionMarbles(
      expectedMarbles: marbles, expected: expected, actual: signal.subscriptions, tick: tick
    ).map { Finding(message: $0, recording: recorded) }
  } catch {
    return Finding(
      message: "subscription marble cannot be read: \(error)", recording: recorded)
  }
}
