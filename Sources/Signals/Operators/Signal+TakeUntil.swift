extension SignalProtocol {
  /// Passes on this signal's events until `trigger` sends a value or completes, then completes.
  ///
  ///     source:             -a-b-c-d-|
  ///     trigger:            ----x
  ///     takeUntil(trigger): -a-b|
  ///
  ///     source:             -a-b-c-d-|
  ///     trigger:            ---|
  ///     takeUntil(trigger): -a-|
  ///
  ///     source:             -a-b-|
  ///     trigger:            --#
  ///     takeUntil(trigger): -a-b-|        (the trigger's error is ignored)
  ///
  /// These are RAC 2.5's `takeUntil:` rules: the trigger's first value *or its completion* ends the
  /// result, and the trigger's error is ignored — the trigger just stops watching and this signal
  /// runs on to its own end. That is why the trigger may have any value and failure type.
  /// **Differs from RxJS:** in RxJS's `takeUntil` (and RxSwift's `take(until:)`) a trigger that
  /// completes without a value changes nothing, and the trigger's error fails the result.
  ///
  /// The trigger is subscribed first; if it fires at once (inside `subscribe`), the result completes
  /// without ever subscribing to this signal. When the result ends — by the trigger, by this
  /// signal's own error or completion, or by disposal — both subscriptions are disposed.
  ///
  /// - Parameter trigger: The signal whose first value or completion ends the result.
  /// - Returns: This signal, cut short by `trigger`.
  public func takeUntil(_ trigger: some SignalProtocol) -> Signal<Value, Failure> {
    let trigger = trigger.asSignal()
    return Signal { downstream in
      let disposables = CompoundDisposable()
      let fire: @Sendable () -> Void = {
        disposables.dispose()
        downstream.sendCompleted()
      }
      disposables.add(trigger.subscribe(next: { _ in fire() }, completed: fire))
      // Adding to a disposed compound disposes at once, but skipping the subscription entirely
      // keeps a trigger that fired inside `subscribe` from starting this signal's work at all.
      guard !disposables.isDisposed else { return nil }
      disposables.add(
        self.subscribe(
          next: { downstream.sendNext($0) },
          error: { downstream.sendError($0) },
          completed: { downstream.sendCompleted() }
        ))
      return disposables
    }
  }
}
