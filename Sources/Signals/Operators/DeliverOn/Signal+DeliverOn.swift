extension SignalProtocol {
  /// Delivers each event in its own action scheduled on `scheduler`, in the order the source sent
  /// them.
  ///
  ///     source:                 -a-b|
  ///     deliver(on: scheduler): -a-b|     (each event in a scheduled action)
  ///
  /// Events wait in a queue with at most one action scheduled at a time: that action delivers the
  /// oldest event and schedules the next, so the order holds on any scheduler, even one that runs
  /// actions concurrently. On a `TestScheduler` the action runs later in the same tick, so frames do
  /// not move. Errors and completion are delivered in order too, after the values before them (they
  /// do not jump the queue). Disposing the subscription cancels the pending action and drops the
  /// queued events.
  ///
  /// This is RAC 2.5's `deliverOn:`, RxSwift's `observe(on:)` and RxJS's `observeOn`.
  ///
  /// - Parameter scheduler: Where the events are delivered.
  /// - Returns: The signal whose events arrive on `scheduler`.
  public func deliver(on scheduler: some Scheduler) -> Signal<Value, Failure> {
    let scheduler = scheduler.keptByOperators
    return Signal { downstream in
      let state = Locked(DeliveryQueue<Value, Failure>())
      @Sendable func deliverOldest() {
        downstream.send(state.withLock { $0.takeOldest() })
        // Only the action that sent decides whether another is needed, after sending: no second
        // action can start (and overtake) in between.
        if let number = state.withLock({ $0.delivered() }) { schedule(number) }
      }
      @Sendable func schedule(_ number: Int) {
        let disposable = scheduler.schedule(deliverOldest)
        state.withLock { $0.keep(disposable, for: number) }?.dispose()
      }
      @Sendable func enqueue(_ event: Event<Value, Failure>) {
        guard let number = state.withLock({ $0.append(event) }) else { return }
        schedule(number)
      }
      let disposables = CompoundDisposable([
        AnyDisposable { state.withLock { $0.dispose() }?.dispose() }
      ])
      disposables.add(
        self.subscribe(
          next: { enqueue(.next($0)) },
          error: { enqueue(.error($0)) },
          completed: { enqueue(.completed) }
        ))
      return disposables
    }
  }
}
