extension SignalProtocol {
  /// Subscribes to this signal inside an action scheduled on `scheduler`, instead of on the
  /// subscribing thread; events are delivered wherever the source sends them.
  ///
  ///     source:                   -a-b|
  ///     subscribe(on: scheduler): -a-b|      (the subscription runs in a scheduled action)
  ///
  /// Disposing before the action runs cancels it, and the source is never subscribed to. On a
  /// `TestScheduler` the action runs later in the same tick, after whatever was already queued for
  /// that tick: an event a hot source sends in between is missed.
  ///
  /// This is RAC 2.5's `subscribeOn:` and RxSwift's and RxJS's `subscribeOn`. Like RAC's and RxJS's,
  /// and unlike RxSwift's (which schedules the disposal too), disposing runs on the disposing thread.
  ///
  /// - Parameter scheduler: Where the subscription happens.
  /// - Returns: The signal whose subscriptions happen on `scheduler`.
  public func subscribe(on scheduler: some Scheduler) -> Signal<Value, Failure> {
    let scheduler = scheduler.keptByOperators
    return Signal { downstream in
      // A compound, not a serial disposable: a scheduler that runs the action at once (an
      // `ImmediateScheduler`) adds the source subscription before `schedule` returns its own
      // disposable, which must not replace it.
      let disposables = CompoundDisposable()
      disposables.add(scheduler.schedule { disposables.add(self.subscribe(downstream)) })
      return disposables
    }
  }
}
