extension SignalProtocol {
  /// On error, subscribes to this signal again, for ever: only completion (or disposal) ends it —
  /// RAC 2.5's `retry` and RxJS's `retry()`.
  ///
  ///     source:   -a#
  ///     retry():  -a-a-a-a-a-…
  ///
  /// Each resubscription happens at the tick of the error it replaces. A signal that fails
  /// synchronously inside `subscribe` every time never lets `subscribe` return: give such a signal
  /// a count (``retry(_:)``), or make it fail later.
  ///
  /// - Returns: The retrying signal.
  public func retry() -> Signal<Value, Failure> {
    Signal { downstream in
      let attempt = RetryAttempt(source: asSignal(), downstream: downstream, retries: nil)
      attempt.start()
      return attempt.subscription
    }
  }

  /// On error, subscribes to this signal again, at most `count` times; the next error fails.
  ///
  ///     source:   -a#
  ///     retry(2): -a-a-a#
  ///     (subscriptions: ^-!, --^-!, ----^-!)
  ///
  /// Each resubscription happens at the tick of the error it replaces, and the values sent before
  /// an error stay sent: a retried cold signal repeats them. Completion passes through and ends the
  /// retrying. `count` counts *resubscriptions*, as RAC 2.5's `retry:` and RxJS's `retry(count)`
  /// do, so there are at most `count + 1` subscriptions; RxSwift's `retry(_:)` counts attempts,
  /// the first one included. Unlike RAC 2.5, a count of `0` does not retry forever: it never
  /// retries.
  ///
  /// A signal that fails synchronously inside `subscribe` is resubscribed in a loop, not by
  /// recursion, so a large count cannot overflow the stack. Disposing stops the retrying.
  ///
  /// - Parameter count: How many times to resubscribe after an error; `0` or less never retries.
  /// - Returns: The retrying signal.
  public func retry(_ count: Int) -> Signal<Value, Failure> {
    guard count > 0 else { return asSignal() }
    return Signal { downstream in
      let attempt = RetryAttempt(source: asSignal(), downstream: downstream, retries: count)
      attempt.start()
      return attempt.subscription
    }
  }
}

/// One subscription to a retried signal: the current attempt's subscription and the retries left.
final class RetryAttempt<Value: Sendable, Failure: Error>: Sendable {
  private struct State {
    /// `nil`: for ever.
    var retriesLeft: Int?
    /// Whether `start` is running its loop: an error then asks the loop to resubscribe.
    var isSubscribing = false
    var needsResubscription = false
  }

  private enum Decision {
    case fail
    case resubscribeNow
    case resubscribeInLoop
  }

  let subscription = SerialDisposable()
  private let source: Signal<Value, Failure>
  private let downstream: any SubscriberProtocol<Value, Failure>
  private let state: Locked<State>

  init(
    source: Signal<Value, Failure>, downstream: any SubscriberProtocol<Value, Failure>,
    retries: Int?
  ) {
    self.source = source
    self.downstream = downstream
    state = Locked(State(retriesLeft: retries))
  }

  /// Subscribes to the source, and again for every error that arrives while subscribing.
  func start() {
    var again = true
    while again, !subscription.isDisposed {
      state.withLock {
        $0.isSubscribing = true
        $0.needsResubscription = false
      }
      let downstream = downstream
      subscription.inner = source.subscribe(
        next: { downstream.sendNext($0) },
        error: { self.failed($0) },
        completed: { downstream.sendCompleted() }
      )
      again = state.withLock { state -> Bool in
        state.isSubscribing = false
        return state.needsResubscription
      }
    }
  }

  private func failed(_ failure: Failure) {
    let decision = state.withLock { state -> Decision in
      if let retriesLeft = state.retriesLeft {
        guard retriesLeft > 0 else { return .fail }
        state.retriesLeft = retriesLeft - 1
      }
      guard !state.isSubscribing else {
        state.needsResubscription = true
        return .resubscribeInLoop
      }
      return .resubscribeNow
    }
    switch decision {
    case .fail: downstream.sendError(failure)
    case .resubscribeNow: start()
    case .resubscribeInLoop: break
    }
  }
}
