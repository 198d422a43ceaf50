public import MarbleTesting
public import Signals

extension TestScheduler {
  /// Subscribes to a higher-order signal as `subscription` says, recording every inner signal from
  /// the frame it is sent, and returns an expectation to state with `toBe(_:inner:…)`;
  /// ``flush(fileID:filePath:line:column:)`` runs the scheduler and checks it — RxJS's
  /// `expectObservable(outer).toBe("--a--b|", { a: cold("-x|"), b: cold("--y|") })`.
  ///
  /// ```swift
  /// let source = try scheduler.hot("-a-b-A-B-|")
  /// scheduler.expect(source.groupBy { $0.lowercased() })
  ///   .toBe("-a-b-----|", inner: ["a": "a---A---|", "b": "b---B-|"])
  /// scheduler.flush()
  /// ```
  ///
  /// The inner signals are recorded as ``/MarbleTesting/TestScheduler/recordHigherOrder(_:subscribeAt:disposeAt:)``
  /// does: subscribed inside the outer `sendNext`, their frames counting from the frame they were
  /// sent at.
  ///
  /// - Parameters:
  ///   - signal: The signal of signals to record.
  ///   - subscription: When to subscribe (`^`) and dispose (`!`) the outer signal; `"^"` by
  ///     default. A marble that cannot be read is reported here, at once.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  /// - Returns: The expectation; a failing one is reported at this call's line.
  public func expect<S: SignalProtocol>(
    _ signal: S, subscription: String = "^",
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> HigherOrderSignalExpectation<S.Value.Value, S.Failure>
  where S.Value: SignalProtocol, S.Value.Failure == S.Failure {
    let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let times = subscriptionTimes(subscription, site: site)
    let subscriber = recordHigherOrder(
      signal, subscribeAt: times.subscribed, disposeAt: times.disposed)
    return HigherOrderSignalExpectation(subscriber: subscriber, registration: register(at: site))
  }
}

/// What a higher-order signal recorded by
/// ``MarbleTesting/TestScheduler/expect(_:subscription:fileID:filePath:line:column:)->HigherOrderSignalExpectation<S.Value.Value,S.Failure>``
/// must have sent: inner signals at given frames, each with its own marble; stated with `toBe(_:inner:…)`, checked by
/// `flush()`.
public struct HigherOrderSignalExpectation<Value: Sendable, Failure: Error>: Sendable {
  let subscriber: HigherOrderTestSubscriber<Value, Failure>
  let registration: ExpectationRegistration

  /// The recorded signal must send inner signals where `marbles` draws them, each sending what its
  /// entry in `inner` draws (frames counting from the frame it was sent at), with values and an
  /// error of your own.
  ///
  /// - Parameters:
  ///   - marbles: The outer events; each value character is a key of `inner`.
  ///   - inner: The marble of each inner signal.
  ///   - values: What the inner marbles' value characters stand for.
  ///   - error: What `#` stands for, in the outer marble and the inner ones.
  public func toBe<Key: MarbleValueKey>(
    _ marbles: String, inner: [Character: String], values: [Key: Value], error: Failure
  ) where Value: Equatable, Failure: Equatable {
    toBe(marbles, inner: inner, values: values, orError: error)
  }

  /// The recorded signal must send inner signals where `marbles` draws them, each sending what its
  /// entry in `inner` draws; a `#` is a `TestError()` when the signals fail with ``/MarbleTesting/TestError``,
  /// needs `error:` for any other failure type, and is a mistake for `Never`.
  ///
  /// - Parameters:
  ///   - marbles: The outer events; each value character is a key of `inner`.
  ///   - inner: The marble of each inner signal.
  ///   - values: What the inner marbles' value characters stand for.
  public func toBe<Key: MarbleValueKey>(
    _ marbles: String, inner: [Character: String], values: [Key: Value]
  )
  where Value: Equatable, Failure: Equatable {
    toBe(marbles, inner: inner, values: values, orError: Marble.defaultError(Failure.self))
  }

  /// The recorded signal must send inner signals of strings where `marbles` draws them, each
  /// sending what its entry in `inner` draws, each value character standing for itself; a `#` is as
  /// in ``toBe(_:inner:values:)``.
  ///
  /// - Parameters:
  ///   - marbles: The outer events; each value character is a key of `inner`.
  ///   - inner: The marble of each inner signal.
  public func toBe(_ marbles: String, inner: [Character: String])
  where Value == String, Failure: Equatable {
    toBe(
      marbles, inner: inner, values: Marble.characterValues,
      orError: Marble.defaultError(Failure.self))
  }

  private func toBe<Key: MarbleValueKey>(
    _ marbles: String, inner: [Character: String], values: [Key: Value],
    orError error: Failure?
  ) where Value: Equatable, Failure: Equatable {
    let subscriber = subscriber
    let values = KeyedValues(values, for: marbles)
    registration.state {
      values.finding { values in
        higherOrderFailure(subscriber, marbles, inner: inner, values: values, error: error)
          .map { Finding(message: $0) }
      }
    }
  }
}
