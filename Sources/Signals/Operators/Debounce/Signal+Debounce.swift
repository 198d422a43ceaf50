extension SignalProtocol {
  /// Sends a value only once `interval` has passed with no newer value; completion flushes the
  /// pending value first, and an error passes through at once.
  ///
  ///     source:             -a-bc----d|
  ///     debounce(3 frames): -------c--(d|)
  ///     source:             -a-b#
  ///     debounce(3 frames): ----#          (the error at once; b, still pending, is dropped)
  ///
  /// This is what RAC 2.5 called `throttle:`. It matches RxJS's `debounceTime` and RxSwift's
  /// `debounce`, including the flush on completion.
  ///
  /// **At the interval's edge.** The operator reads no clock, so a newer value that arrives at the
  /// very tick the pending value's interval ends is taken in the scheduler's order: if it arrives
  /// before the timer fires it replaces the pending value (the interval did not pass with no newer
  /// value), otherwise the pending value has just been sent. On a `TestScheduler` the order is
  /// `(tick, order scheduled)`, and a test signal's events are queued when the signal is made (hot) or
  /// subscribed to (cold), before any timer the operator sets — so they win the tie:
  ///
  ///     source:             -a--b|
  ///     debounce(3 frames): -----(b|)      (b arrives at a's deadline: a is dropped)
  ///
  /// A cold test signal's frame-0 events are the exception: they are sent inside `subscribe`, so
  /// the operator's timer for them is queued before the signal's later events.
  ///
  /// Disposing the subscription, or its termination, cancels the pending timer. The operator never
  /// reads a clock: pass a `TestScheduler` to drive it in virtual time.
  ///
  /// - Parameters:
  ///   - interval: How long the source must stay quiet before the latest value is sent.
  ///   - scheduler: Where the timers are scheduled.
  /// - Returns: The debounced signal.
  public func debounce(_ interval: Duration, on scheduler: some Scheduler)
    -> Signal<Value, Failure>
  {
    let scheduler = scheduler.keptByOperators
    return Signal { downstream in
      // Decisions are made and their events queued under one lock, and sent in that order: a timer
      // firing on one thread and a completion on another cannot send the completion before the
      // value the timer took.
      let delivery = OrderedDelivery(DebounceState<Value>(), downstream: downstream)
      // The current value's timer; setting a new one cancels the previous.
      let timer = SerialDisposable()
      let disposables = CompoundDisposable([timer])
      disposables.add(
        self.subscribe(
          next: { value in
            guard
              case .startTimer(let generation) = delivery.update({ state, _ in state.next(value) })
            else { return }
            timer.inner = scheduler.schedule(after: interval) {
              delivery.update { state, outgoing in
                guard case .send(let value) = state.timerFired(generation: generation) else {
                  return
                }
                outgoing.append(.next(value))
              }
            }
          },
          error: { delivery.sendError($0) },
          completed: { delivery.sendCompletion() }
        ))
      return disposables
    }
  }
}
