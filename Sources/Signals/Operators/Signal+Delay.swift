extension SignalProtocol {
  /// Delays values and completion by `interval` on `scheduler`; an error passes through at once.
  ///
  ///     source:          -a-b-|
  ///     delay(2 frames): ---a-b-|
  ///     source:          -a-#
  ///     delay(2 frames): -#          (the error at once; a, still pending, is dropped)
  ///
  /// This is RAC 2.5's `delay:`. **Differs from RxJS:** RxJS 7's `delay` does not delay the
  /// completion; it completes when the source has completed and every delayed value has been sent
  /// (`---a--b--|` delayed by 2 is `-----a--b|` there, `-----a--b--|` here). Neither delays an
  /// error. Disposing the subscription cancels every delivery still pending, and so does an error.
  /// The operator never reads a clock: pass a `TestScheduler` to drive it in virtual time.
  ///
  /// - Parameters:
  ///   - interval: How long to delay each value and the completion.
  ///   - scheduler: Where the delayed deliveries are scheduled.
  /// - Returns: The delayed signal.
  public func delay(_ interval: Duration, on scheduler: some Scheduler) -> Signal<Value, Failure> {
    let scheduler = scheduler.keptByOperators
    return Signal { downstream in
      // Each pending delivery's disposable; all are cancelled when the subscription ends (a
      // disposal, or the downstream's error or completion disposing what the closure returned).
      let pending = CompoundDisposable()
      pending.add(
        self.subscribe(
          next: { value in
            pending.add(scheduler.schedule(after: interval) { downstream.sendNext(value) })
          },
          error: { downstream.sendError($0) },
          completed: {
            pending.add(scheduler.schedule(after: interval) { downstream.sendCompleted() })
          }
        ))
      return pending
    }
  }
}
