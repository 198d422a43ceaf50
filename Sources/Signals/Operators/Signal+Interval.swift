extension Signal where Value == Int {
  /// A signal that sends 0, 1, 2, … every `period` on `scheduler`, forever.
  ///
  ///     interval(3 frames): ---0--1--2--3--…
  ///
  /// The first value comes one period after subscription, and each later one a period after the
  /// previous one was due (the scheduler keeps the phase, however late an action runs). It never
  /// completes or fails: end it by disposing the subscription (which stops the timer), or with an
  /// operator such as `take(_:)`. Each subscription has its own timer and count, starting at 0.
  ///
  /// The failure type is free, so the signal fits a pipeline that can fail:
  /// `Signal<Int, Never>.interval(.seconds(1), on: scheduler)` on its own,
  /// `Signal<Int, NetworkError>.interval(…)` to merge with requests. This is RxJS's `interval` and
  /// RxSwift's `Observable.interval`, and RAC 2.5's `interval:onScheduler:` sending a count instead
  /// of the date. It needs a scheduler that can repeat: `ImmediateScheduler` traps.
  ///
  /// - Parameters:
  ///   - period: The time between values; positive.
  ///   - scheduler: Where the repeating timer is scheduled.
  /// - Returns: The counting signal.
  /// - Precondition: `period > .zero`.
  public static func interval(_ period: Duration, on scheduler: some Scheduler) -> Signal {
    let scheduler = scheduler.keptByOperators
    precondition(period > .zero, "interval(_:on:) needs a positive period (got \(period)).")
    return Signal { downstream in
      let count = Locked(0)
      return scheduler.schedule(after: period, interval: period) {
        let value = count.withLock { count -> Int in
          defer { count += 1 }
          return count
        }
        downstream.sendNext(value)
      }
    }
  }
}
