extension SignalProtocol {
  /// Sends at most one value per window of `interval`, configured as RxJS's `throttleTime`:
  /// `leading` sends the value that opens a window, `trailing` sends the latest value seen in the
  /// window when it closes (and that value opens the next window).
  ///
  ///     source:                                      -abc----d-e-|
  ///     throttle(3 frames, leading: true,  trailing: false): -a------d---|
  ///     throttle(3 frames, leading: false, trailing: true):  ----c------e|
  ///     throttle(3 frames, leading: true,  trailing: true):  -a--c---d--e|
  ///
  /// With `trailing`, a completion that arrives while a value waits for its window is held until
  /// the window closes, then sent after that value (RxJS does the same); otherwise completion
  /// passes at once. An error passes at once and drops a waiting value.
  ///
  /// This is RxJS 7's `throttleTime(interval, scheduler, { leading, trailing })`, for porting RxJS
  /// tests: its marbles hold here. ``throttle(_:latest:on:)`` is the RxSwift and Combine form.
  ///
  /// **At the window's edge.** A window opened at tick `t` closes when its timer fires at tick
  /// `t + interval`; a value at that very tick arrives before the timer fires when it was queued
  /// earlier — a test signal's events are — and so still falls in the window.
  ///
  /// - Parameters:
  ///   - interval: The length of each window.
  ///   - leading: Whether the value that opens a window is sent at once.
  ///   - trailing: Whether the latest value seen in a window is sent when it closes.
  ///   - scheduler: Where the windows' timers are scheduled.
  /// - Returns: The throttled signal.
  public func throttle(
    _ interval: Duration, leading: Bool, trailing: Bool, on scheduler: some Scheduler
  ) -> Signal<Value, Failure> {
    let scheduler = scheduler.keptByOperators
    return Signal { downstream in
      // Decisions are made and their events queued under one lock, and sent in that order.
      let delivery = OrderedDelivery(
        ThrottleTimeState<Value>(leading: leading, trailing: trailing), downstream: downstream)
      // The open window's timer.
      let window = SerialDisposable()
      @Sendable func update(
        _ transition: (inout ThrottleTimeState<Value>, inout [Event<Value, Failure>]) -> Bool
      ) {
        guard delivery.update(transition) else { return }
        window.inner = scheduler.schedule(after: interval) {
          update { $0.windowClosed(&$1) }
        }
      }
      let disposables = CompoundDisposable([window])
      disposables.add(
        self.subscribe(
          next: { value in update { $0.next(value, &$1) } },
          error: { error in
            delivery.update { state, outgoing in
              if state.failed() { outgoing.append(.error(error)) }
            }
          },
          completed: {
            update { state, outgoing in
              state.completed(&outgoing)
              return false
            }
          }
        ))
      return disposables
    }
  }
}
