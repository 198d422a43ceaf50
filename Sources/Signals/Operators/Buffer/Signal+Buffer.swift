extension SignalProtocol {
  /// Collects values into arrays: a window opens with its first value and its array is sent when
  /// `timeSpan` has passed or `count` values have arrived, whichever comes first.
  ///
  ///     source:                     -ab-----cde--f|
  ///     buffer(3 frames, count: 3): ----x-----y---(z|)
  ///
  ///     where x = [a, b] (time), y = [c, d, e] (count), z = [f] (flushed by the completion)
  ///
  /// Completion sends the open window's values first, then completes; an error passes through at
  /// once and drops them. Windows never send empty arrays: with no value there is no window and no
  /// timer. Disposing the subscription, or its termination, cancels the window's timer.
  ///
  /// RAC 2.5's `bufferWithTime:onScheduler:` also opened a window with its first value, but had no
  /// count. **Differs from RxJS:** RxJS's `bufferTime(timeSpan, null, maxBufferSize)` (and RxSwift's
  /// `buffer(timeSpan:count:scheduler:)`) runs its windows back to back from subscription, so it
  /// sends an empty array for every window without values.
  ///
  /// **At the window's edge.** A window opened at tick `t` closes when its timer fires at tick
  /// `t + timeSpan`; the operator reads no clock, so a value at that very tick joins the window if it
  /// arrives before the timer fires — as a test signal's events do on a `TestScheduler`, being
  /// queued before the operator's timers.
  ///
  /// - Parameters:
  ///   - timeSpan: How long a window stays open after its first value.
  ///   - count: How many values fill a window; positive.
  ///   - scheduler: Where the windows' timers are scheduled.
  /// - Returns: The signal of arrays.
  /// - Precondition: `count > 0`.
  public func buffer(timeSpan: Duration, count: Int, on scheduler: some Scheduler)
    -> Signal<[Value], Failure>
  {
    precondition(count > 0, "buffer(timeSpan:count:on:) needs a positive count (got \(count)).")
    let scheduler = scheduler.keptByOperators
    return Signal { downstream in
      // Decisions are made and their events queued under one lock, and sent in that order: a timer
      // closing a window on one thread and a value or completion on another cannot overtake it.
      let delivery = OrderedDelivery(BufferState<Value>(count: count), downstream: downstream)
      // The open window's timer.
      let timer = SerialDisposable()
      let disposables = CompoundDisposable([timer])
      disposables.add(
        self.subscribe(
          next: { value in
            let action = delivery.update { state, outgoing -> BufferState<Value>.TimerAction in
              switch state.next(value) {
              case .startTimer(let generation): return .start(generation: generation)
              case .send(let values):
                outgoing.append(.next(values))
                return .cancel
              case .ignore: return .keep
              }
            }
            switch action {
            case .start(let generation):
              timer.inner = scheduler.schedule(after: timeSpan) {
                delivery.update { state, outgoing in
                  guard let values = state.timerFired(generation: generation) else { return }
                  outgoing.append(.next(values))
                }
              }
            case .cancel: timer.inner = nil
            case .keep: break
            }
          },
          error: { delivery.sendError($0) },
          completed: { delivery.sendCompletion() }
        ))
      return disposables
    }
  }
}
