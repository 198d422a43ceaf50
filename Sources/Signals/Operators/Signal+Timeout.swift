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
  /// not reset the timer. RxSwift's `timeout(_:scheduler:)` and RxJS's `timeout(each)` differ: they
  /// time the gap before the first value and between values, so a source that keeps sending never
  /// times out there. (RxJS's `timeout({ first })` times only the first value.) An error or a
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
