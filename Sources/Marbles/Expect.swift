public import MarbleTesting
public import Signals

/// Where an RxJS-style expectation was written, so that `flush()` reports it there.
struct SourceSite: Sendable {
  var fileID: String
  var filePath: StaticString
  var line: UInt
  var column: UInt

  func report(_ message: String) {
    reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension TestScheduler {
  /// Subscribes to `signal` as `subscription` says and returns an expectation to state with
  /// `toBe(…)`; ``flush(fileID:filePath:line:column:)`` runs the scheduler and checks it — the
  /// shape of RxJS's `expectObservable(…).toBe(…)`, for porting RxJS marble tests.
  ///
  /// ```swift
  /// let source = try scheduler.hot("--a--b--|")
  /// scheduler.expect(source.map { $0.uppercased() }).toBe("--A--B--|")
  /// scheduler.expect(source, subscription: "---^--!").toBe("-----b-")
  /// scheduler.flush()
  /// ```
  ///
  /// - Parameters:
  ///   - signal: The signal to record.
  ///   - subscription: When to subscribe (`^`) and dispose (`!`); `"^"` — subscribe at frame 0 and
  ///     stay — by default. A marble that cannot be read is reported here, at once.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  /// - Returns: The expectation; a failing one is reported at this call's line.
  public func expect<S: SignalProtocol>(
    _ signal: S, subscription: String = "^",
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> SignalExpectation<S.Value, S.Failure> {
    let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    let times = subscriptionTimes(subscription, site: site)
    let subscriber = record(signal, subscribeAt: times.subscribed, disposeAt: times.disposed)
    return SignalExpectation(subscriber: subscriber, site: site)
  }

  /// The subscription a marble of `expect(…, subscription:)` draws; one that cannot be read is
  /// reported at `site`, and the subscription is then at frame 0 for good.
  func subscriptionTimes(_ subscription: String, site: SourceSite) -> Subscription {
    do {
      return try Marble.parseSubscription(subscription, tick: tick)
    } catch {
      site.report("subscription marble cannot be read: \(error)")
      return Subscription(0)
    }
  }

  /// Returns an expectation of `signal`'s subscription log to state with `toBe(…)`, checked by
  /// ``flush(fileID:filePath:line:column:)`` (RxJS's `expectSubscriptions(…).toBe(…)`).
  ///
  /// - Parameters:
  ///   - signal: The test signal.
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  /// - Returns: The expectation; a failing one is reported at this call's line.
  public func expectSubscriptions<Value: Sendable, Failure: Error>(
    _ signal: TestSignal<Value, Failure>,
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> SubscriptionsExpectation<Value, Failure> {
    SubscriptionsExpectation(
      signal: signal,
      site: SourceSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs the scheduler to completion, then checks every `expect(…).toBe(…)` registered since the
  /// last flush, reporting each failing one at the line of its own `expect` — all of them, not
  /// just the first. A run stopped at the step limit (an endless timer) is reported here.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file ID (filled in for you).
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  public func flush(
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    run()
    reportSchedulerFailures(self, fileID: fileID, filePath: filePath, line: line, column: column)
    for check in takeFlushChecks() { check() }
  }
}

/// What a signal recorded by ``TestScheduler/expect(_:subscription:fileID:filePath:line:column:)``
/// must have received; stated with `toBe(…)`, checked by `flush()`.
public struct SignalExpectation<Value: Sendable, Failure: Error>: Sendable {
  let subscriber: TestSubscriber<Value, Failure>
  let site: SourceSite

  /// The recorded signal must send what `marbles` draws, with values and an error of your own.
  ///
  /// - Parameters:
  ///   - marbles: The expected events; frame 0 is tick 0.
  ///   - values: What the value characters stand for.
  ///   - error: What `#` stands for.
  public func toBe(_ marbles: String, values: [Character: Value], error: Failure)
  where Value: Equatable, Failure: Equatable {
    let subscriber = subscriber
    let site = site
    subscriber.scheduler.addFlushCheck {
      if let message = marblesFailure(subscriber, marbles, values: values, error: error) {
        site.report(message)
      }
    }
  }

  /// The recorded signal must send what `marbles` draws; `#` is `TestError()`.
  ///
  /// - Parameters:
  ///   - marbles: The expected events.
  ///   - values: What the value characters stand for.
  public func toBe(_ marbles: String, values: [Character: Value])
  where Value: Equatable, Failure == TestError {
    toBe(marbles, values: values, error: TestError())
  }

  /// The recorded signal of strings must send what `marbles` draws, each value character standing
  /// for itself.
  ///
  /// - Parameters:
  ///   - marbles: The expected events.
  ///   - error: What `#` stands for.
  public func toBe(_ marbles: String, error: Failure)
  where Value == String, Failure: Equatable {
    toBe(marbles, values: Marble.characterValues, error: error)
  }

  /// The recorded signal of strings must send what `marbles` draws; `#` is `TestError()`.
  ///
  /// - Parameter marbles: The expected events.
  public func toBe(_ marbles: String) where Value == String, Failure == TestError {
    toBe(marbles, values: Marble.characterValues, error: TestError())
  }
}

/// The subscriptions a test signal must have seen; stated with `toBe(…)`, checked by `flush()`.
public struct SubscriptionsExpectation<Value: Sendable, Failure: Error>: Sendable {
  let signal: TestSignal<Value, Failure>
  let site: SourceSite

  /// The signal must have seen one subscription per marble, in order.
  ///
  /// - Parameter marbles: One subscription marble (`^` subscribe, `!` dispose) per subscription.
  public func toBe(_ marbles: String...) {
    let signal = signal
    let site = site
    signal.scheduler.addFlushCheck {
      if let message = subscriptionsFailure(signal, marbles) { site.report(message) }
    }
  }
}
