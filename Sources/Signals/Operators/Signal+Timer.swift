extension Signal where Value == Int {
  /// A signal that sends one value, 0, once `delay` has passed on `scheduler`, then completes.
  ///
  ///     timer(after: 3 frames): ---(0|)
  ///
  /// Each subscription starts its own timer; disposing the subscription before it fires cancels it.
  /// The failure type is free, so the signal fits a pipeline that can fail:
  /// `Signal<Int, Never>.timer(after: .seconds(1), on: scheduler)`. This is RxJS's `timer(due)` and
  /// RxSwift's `Observable.timer(_:scheduler:)` without a period (for a repeating timer, use
  /// ``interval(_:on:)``).
  ///
  /// - Parameters:
  ///   - delay: How long after subscription the value is sent; zero or negative means as soon as
  ///     the scheduler can.
  ///   - scheduler: Where the timer is scheduled.
  /// - Returns: The one-shot timer signal.
  public static func timer(after delay: Duration, on scheduler: some Scheduler) -> Signal {
    let scheduler = scheduler.keptByOperators
    return Signal { downstream in
      scheduler.schedule(after: delay) {
        downstream.sendNext(0)
        downstream.sendCompleted()
      }
    }
  }
}
