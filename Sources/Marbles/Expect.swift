public import MarbleTesting
public import Signals

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
    return SignalExpectation(subscriber: subscriber, registration: register(at: site))
  }

  /// Registers an expectation written at `site` for the next `flush()` to check.
  func register(at site: SourceSite) -> ExpectationRegistration {
    let token = UncheckedExpectations.add(site)
    let id = registerExpectation(
      unchecked: ExpectationRegistration.unchecked(site: site, token: token))
    return ExpectationRegistration(scheduler: self, id: id, token: token, site: site)
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
      registration: register(
        at: SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)))
  }

  /// Runs the scheduler to completion, then checks every `expect(…).toBe(…)` registered since the
  /// last flush, reporting each failing one at the line of its own `expect` — all of them, not
  /// just the first. A run stopped at the step limit (an endless timer) is reported here.
  ///
  /// Nothing is silently green: an `expect` that no `flush()` checks — the test forgot it, called
  /// `run()` instead, or added the `expect` after the last `flush()` — fails the test at that
  /// `expect`'s line when the scheduler is released, and so does an `expect` without `toBe(…)`.
  /// (If code under test keeps the scheduler alive forever, so that it is never released, the test
  /// process reports the `expect`'s location and exits with status 1 instead.)
  ///
  /// A task started with ``/MarbleTesting/TestScheduler/task(name:fileID:line:_:)`` that is still
  /// suspended when nothing is left to run — it waits on something outside virtual time, or on
  /// input that never comes — is reported here too, by name and tick.
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
    let site = SourceSite(fileID: fileID, filePath: filePath, line: line, column: column)
    site.reportFailures(of: core)
    site.reportStalledTasks(of: core)
    for expectation in takeExpectations() {
      if let check = expectation.check {
        check()
      } else {
        expectation.unchecked(false)
      }
    }
  }
}

/// An expectation's place in its scheduler's ledger and in ``UncheckedExpectations``.
struct ExpectationRegistration: Sendable {
  let scheduler: TestScheduler
  let id: Int
  let token: Int
  let site: SourceSite

  /// States the expectation: at `flush()`, `failure` says what is wrong, if anything.
  func state(_ failure: @escaping @Sendable () -> String?) {
    state { failure().map { Finding(message: $0) } }
  }

  /// States the expectation: at `flush()`, `finding` says what is wrong, if anything, and may
  /// draw it.
  func state(_ finding: @escaping @Sendable () -> Finding?) {
    let site = site
    let token = token
    scheduler.state(
      expectation: id,
      check: {
        UncheckedExpectations.remove(token)
        if let finding = finding() { site.report(finding) }
      }, unchecked: Self.unchecked(site: site, token: token))
  }

  /// What reports an expectation nobody checked.
  static func unchecked(site: SourceSite, token: Int) -> @Sendable (_ stated: Bool) -> Void {
    { stated in
      UncheckedExpectations.remove(token)
      site.report(
        stated
          ? "this expectation was never checked: no scheduler.flush() came after it. Call "
            + "scheduler.flush() once the expectations are stated — run() runs the scheduler but "
            + "checks nothing."
          : "expect(…) states nothing: say what must happen with .toBe(…), then check it with "
            + "scheduler.flush().")
    }
  }
}

/// What a signal recorded by
/// ``MarbleTesting/TestScheduler/expect(_:subscription:fileID:filePath:line:column:)->SignalExpectation<S.Value,S.Failure>``
/// must have received; stated with `toBe(…)`, checked by `flush()`.
public struct SignalExpectation<Value: Sendable, Failure: Error>: Sendable {
  let subscriber: TestSubscriber<Value, Failure>
  let registration: ExpectationRegistration

  /// The recorded signal must send what `marbles` draws, with values and an error of your own.
  ///
  /// - Parameters:
  ///   - marbles: The expected events; frame 0 is tick 0.
  ///   - values: What the value characters stand for.
  ///   - error: What `#` stands for.
  public func toBe<Key: MarbleValueKey>(_ marbles: String, values: [Key: Value], error: Failure)
  where Value: Equatable, Failure: Equatable {
    toBe(marbles, values: values, orError: error)
  }

  /// The recorded signal must send what `marbles` draws. A `#` is a `TestError()` when the signal
  /// fails with ``/MarbleTesting/TestError``; for any other failure type, a marble with `#` needs `error:`, and
  /// for a signal that cannot fail (`Failure == Never`) a `#` is a mistake.
  ///
  /// - Parameters:
  ///   - marbles: The expected events.
  ///   - values: What the value characters stand for.
  public func toBe<Key: MarbleValueKey>(_ marbles: String, values: [Key: Value])
  where Value: Equatable, Failure: Equatable {
    toBe(marbles, values: values, orError: Marble.defaultError(Failure.self))
  }

  /// The recorded signal of strings must send what `marbles` draws, each value character standing
  /// for itself.
  ///
  /// - Parameters:
  ///   - marbles: The expected events.
  ///   - error: What `#` stands for.
  public func toBe(_ marbles: String, error: Failure)
  where Value == String, Failure: Equatable {
    toBe(marbles, values: Marble.characterValues, orError: error)
  }

  /// The recorded signal of strings must send what `marbles` draws, each value character standing
  /// for itself; a `#` is as in ``toBe(_:values:)``.
  ///
  /// - Parameter marbles: The expected events.
  public func toBe(_ marbles: String) where Value == String, Failure: Equatable {
    toBe(marbles, values: Marble.characterValues, orError: Marble.defaultError(Failure.self))
  }

  private func toBe<Key: MarbleValueKey>(
    _ marbles: String, values: [Key: Value], orError error: Failure?
  )
  where Value: Equatable, Failure: Equatable {
    let subscriber = subscriber
    let values = KeyedValues(values, for: marbles)
    let recording = RecordingSite(site: registration.site, target: .toBe, core: subscriber.core)
    registration.state {
      values.finding { values in
        marblesFailure(subscriber, marbles, values: values, error: error, recording: recording)
      }
    }
  }
}

/// The subscriptions a test signal must have seen; stated with `toBe(…)`, checked by `flush()`.
public struct SubscriptionsExpectation<Value: Sendable, Failure: Error>: Sendable {
  let signal: TestSignal<Value, Failure>
  let registration: ExpectationRegistration

  /// The signal must have seen one subscription per marble, in order.
  ///
  /// - Parameter marbles: One subscription marble (`^` subscribe, `!` dispose) per subscription.
  public func toBe(_ marbles: String...) {
    let signal = signal
    let recording = RecordingSite(
      site: registration.site, target: .toBeArguments, core: signal.core)
    registration.state { subscriptionsFailure(signal, marbles, recording: recording) }
  }
}
