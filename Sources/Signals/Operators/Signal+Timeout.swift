extension SignalProtocol {
  /// Fails with `error` unless this signal terminates within `interval` of subscription; on time
  /// out the source subscription is disposed.
  ///
  ///     source:                 -a-b-|
  ///     timeout(6 frames, e):   -a-b-|
  ///     source:                 -a-b------c|
  ///     timeout(6 frames, e):   -a-b--#         (e; the source is disposed at frame 6)
  ///
  /// This is RAC 2.5's `timeout:onScheduler:`: the whole signal must finish in time, and values do
  /// not reset the timer. **Differs from RxJS:** RxJS's `timeout(each)` (and RxSwift's `timeout`)
  /// times the gaps before and between values — here ``timeout(each:on:error:)`` — and
  /// `timeout({ first })` only the first value — here ``timeout(first:on:error:)``. An error or a
  /// completion from the source in time passes through and cancels the timer, as does disposal.
  ///
  /// **At the edge.** A source that terminates at the very tick the interval ends is in time if its
  /// terminal event arrives before the timer fires. The operator subscribes to the source before it
  /// schedules the timer, so on a `TestScheduler` the events a test signal queued then (or earlier,
  /// for a hot one) win the tie: `-a---|` with `timeout(5 frames, e)` completes.
  ///
  /// - Parameters:
  ///   - interval: How long the source has to terminate, from subscription.
  ///   - scheduler: Where the timer is scheduled.
  ///   - error: The failure sent on time out.
  /// - Returns: The signal that fails with `error` on time out.
  public func timeout(_ interval: Duration, on scheduler: some Scheduler, error: Failure)
    -> Signal<Value, Failure>
  {
    let scheduler = scheduler.keptByOperators
    return Signal { downstream in
      let source = self.subscribe(downstream)
      let timer = scheduler.schedule(after: interval) {
        // Dispose first, as RAC does, so the source is not still running when the error arrives.
        source.dispose()
        downstream.sendError(error)
      }
      return CompoundDisposable([source, timer])
    }
  }
}

extension SignalProtocol {
  /// Fails with `error` unless the first value (or the end) arrives within `interval` of
  /// subscription; later values are not timed — RxJS's `timeout({ first })`.
  ///
  ///     source:                    ---a-------b|
  ///     timeout(first: 4, e):      ---a-------b|
  ///     source:                    ------a|
  ///     timeout(first: 4, e):      ----#          (the source is disposed at frame 4)
  ///
  /// - Parameters:
  ///   - interval: How long the first value may take, from subscription.
  ///   - scheduler: Where the timer is scheduled.
  ///   - error: The failure sent on time out.
  /// - Returns: The signal that fails with `error` on time out.
  public func timeout(first interval: Duration, on scheduler: some Scheduler, error: Failure)
    -> Signal<Value, Failure>
  {
    timeout(first: interval, each: nil, scheduler: scheduler.keptByOperators, error: error)
  }

  /// Fails with `error` when `interval` passes without a value: from subscription to the first
  /// value, and between values — RxJS's `timeout(each)` and RxSwift's `timeout`.
  ///
  ///     source:                    --a--b-----c|
  ///     timeout(each: 4, e):       --a--b---#     (5 frames after b: the source is disposed)
  ///
  /// - Parameters:
  ///   - interval: The longest wait for each value.
  ///   - scheduler: Where the timers are scheduled.
  ///   - error: The failure sent on time out.
  /// - Returns: The signal that fails with `error` on time out.
  public func timeout(each interval: Duration, on scheduler: some Scheduler, error: Failure)
    -> Signal<Value, Failure>
  {
    timeout(first: nil, each: interval, scheduler: scheduler.keptByOperators, error: error)
  }

  /// Fails with `error` unless the first value arrives within `first` of subscription, and each
  /// later one within `each` of the one before — RxJS's `timeout({ first, each })`.
  ///
  /// - Parameters:
  ///   - first: How long the first value may take, from subscription.
  ///   - each: The longest wait for each later value.
  ///   - scheduler: Where the timers are scheduled.
  ///   - error: The failure sent on time out.
  /// - Returns: The signal that fails with `error` on time out.
  public func timeout(
    first: Duration, each: Duration, on scheduler: some Scheduler, error: Failure
  ) -> Signal<Value, Failure> {
    timeout(first: first, each: each, scheduler: scheduler.keptByOperators, error: error)
  }

  /// Times the first value with `first ?? each` and each later one with `each`, if given.
  ///
  /// A value and the timer at one moment are decided under one lock and sent in that order: once
  /// a value is decided, its gap's timer can no longer fire, and once the timer has fired, values
  /// are dropped. As in RxJS, the source is subscribed before the first timer starts, and each
  /// later timer starts when the value before it is sent.
  private func timeout(
    first: Duration?, each: Duration?, scheduler: any Scheduler, error: Failure
  ) -> Signal<Value, Failure> {
    Signal { downstream in
      let delivery = OrderedDelivery(TimeoutState(), downstream: downstream)
      let timer = SerialDisposable()
      let source = SerialDisposable()
      @Sendable func startTimer(_ interval: Duration, gap: Int) {
        timer.inner = scheduler.schedule(after: interval) {
          let timedOut = delivery.update { state, _ in state.timeOut(gap: gap) }
          guard timedOut else { return }
          // Dispose first, as RAC does, so the source is not still running when the error
          // arrives.
          source.dispose()
          delivery.update { _, outgoing in outgoing.append(.error(error)) }
        }
      }
      source.inner = self.subscribe(
        next: { value in
          let gap = delivery.update { state, outgoing -> Int? in
            guard let gap = state.valueArrived() else { return nil }
            outgoing.append(.next(value))
            return gap
          }
          guard let gap else { return }
          if let each { startTimer(each, gap: gap) } else { timer.dispose() }
        },
        error: { failure in
          delivery.update { state, outgoing in
            if state.terminate() { outgoing.append(.error(failure)) }
          }
        },
        completed: {
          delivery.update { state, outgoing in
            if state.terminate() { outgoing.append(.completed) }
          }
        })
      // The first timer starts after the source is subscribed, as in RxJS: a source event due at
      // the deadline was queued first, and is in time.
      if let interval = first ?? each, delivery.update({ state, _ in state.awaitsFirstValue }) {
        startTimer(interval, gap: 0)
      }
      return CompoundDisposable([source, timer])
    }
  }
}

/// The pure state of one `timeout(first:each:)` subscription: which gap between values is being
/// timed, and whether it has ended.
struct TimeoutState: Sendable {
  /// The gap being timed: 0 before the first value, `n` after the `n`th.
  private var gap = 0
  private var isTerminated = false

  /// Whether nothing has arrived yet: the first gap is open.
  var awaitsFirstValue: Bool { !isTerminated && gap == 0 }

  /// A value arrived in time.
  ///
  /// - Returns: The new gap to time, or `nil` if the subscription has ended.
  mutating func valueArrived() -> Int? {
    guard !isTerminated else { return nil }
    gap += 1
    return gap
  }

  /// The timer of gap `gap` fired.
  ///
  /// - Returns: Whether the signal times out (the gap is still open).
  mutating func timeOut(gap: Int) -> Bool {
    guard !isTerminated, gap == self.gap else { return false }
    isTerminated = true
    return true
  }

  /// The source terminated.
  ///
  /// - Returns: Whether to forward it.
  mutating func terminate() -> Bool {
    guard !isTerminated else { return false }
    isTerminated = true
    return true
  }
}
