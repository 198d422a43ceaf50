extension SignalProtocol {
  /// Sends at most one value per `interval`: the first value passes at once and opens a window;
  /// with `latest`, the latest value seen in the window is sent when it closes (and opens the next
  /// window), otherwise values inside the window are dropped.
  ///
  ///     source:                            -abc---d-e|
  ///     throttle(3 frames, latest: false): -a-----d--|
  ///     throttle(3 frames, latest: true):  -a--c--d--(e|)
  ///
  /// Completion with `latest` sends a pending trailing value first, then completes at once (it does
  /// not wait for the window to close). An error passes through at once and drops a trailing value.
  ///
  /// **Not RAC's `throttle:`.** RAC 2.5's `throttle:` waited for a quiet interval — that operator is
  /// ``debounce(_:on:)`` here. This is the modern sense of the name, as in RxSwift's
  /// `throttle(_:latest:scheduler:)` and Combine's `throttle(for:scheduler:latest:)`. RxJS's
  /// `throttleTime(duration, scheduler, { leading, trailing })` configures both ends instead:
  /// `latest: false` is its default `{ leading: true, trailing: false }`, and `latest: true` is
  /// `{ leading: true, trailing: true }`, except that RxJS holds a completion back until the window
  /// closes to send the trailing value then, where this sends it with the completion.
  ///
  /// **At the window's edge.** A window opened at tick `t` closes when its timer fires at tick
  /// `t + interval`. The operator reads no clock, so a value at that very tick is taken in the
  /// scheduler's order: if it arrives before the timer fires it is still inside the window. On a
  /// `TestScheduler` a test signal's events are queued before the operator's timers, so they are:
  ///
  ///     source:                            -a--b--c|
  ///     throttle(3 frames, latest: false): -a-----c|   (b, at a's window's last moment, is dropped)
  ///     throttle(3 frames, latest: true):  -a--b--c|   (b is the trailing value, sent as it closes)
  ///
  /// Disposing the subscription, or its termination, cancels the window's timer. The operator never
  /// reads a clock: pass a `TestScheduler` to drive it in virtual time.
  ///
  /// - Parameters:
  ///   - interval: The length of each window.
  ///   - latest: Whether the latest value seen in a window is sent when the window closes.
  ///   - scheduler: Where the windows' timers are scheduled.
  /// - Returns: The throttled signal.
  public func throttle(_ interval: Duration, latest: Bool, on scheduler: some Scheduler)
    -> Signal<Value, Failure>
  {
    let scheduler = scheduler.keptByOperators
    return Signal { downstream in
      // Decisions are made and their events queued under one lock, and sent in that order: a window
      // closing on one thread and a completion on another cannot send the completion before the
      // trailing value the window took.
      let delivery = OrderedDelivery(ThrottleState<Value>(latest: latest), downstream: downstream)
      // The open window's timer.
      let window = SerialDisposable()
      @Sendable func update(
        _ transition: (inout ThrottleState<Value>) -> ThrottleState<Value>.Action
      ) {
        let opensWindow = delivery.update { state, outgoing -> Bool in
          guard case .sendAndOpenWindow(let value) = transition(&state) else { return false }
          outgoing.append(.next(value))
          return true
        }
        guard opensWindow else { return }
        window.inner = scheduler.schedule(after: interval) { update { $0.windowClosed() } }
      }
      let disposables = CompoundDisposable([window])
      disposables.add(
        self.subscribe(
          next: { value in update { $0.next(value) } },
          error: { delivery.sendError($0) },
          completed: { delivery.sendCompletion() }
        ))
      return disposables
    }
  }
}
