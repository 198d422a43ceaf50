extension SignalProtocol {
  /// Sends this signal's latest value each time `trigger` sends — RAC 2.5's `sample:`.
  ///
  ///     source:      -a-b----c--d|
  ///     trigger:     ---x--x---x---|
  ///     sample(tr):  ---b--b---c-|
  ///
  /// A trigger value sends the latest value even if an earlier trigger value sent it already; one
  /// that comes before the source's first value sends nothing. Completes when either the source or
  /// the trigger completes; an error from either fails at once. Either terminating, or disposing the
  /// subscription, disposes both subscriptions.
  ///
  /// **Differs from RxJS:** RxJS's `sample` (and RxSwift's) sends each value at most once, so a
  /// trigger with nothing new sends nothing, and it ignores the trigger's completion, running until
  /// the source completes.
  ///
  /// **In the same tick.** The operator reads no clock: a source value and a trigger value at the
  /// same tick are taken in the order they arrive. On a `TestScheduler` that is the order their
  /// actions were queued — for hot test signals, the order the signals were made.
  ///
  /// - Parameter trigger: The signal whose values sample this one; its values are ignored.
  /// - Returns: The sampled signal.
  public func sample<TriggerValue>(_ trigger: some SignalProtocol<TriggerValue, Failure>)
    -> Signal<Value, Failure>
  {
    Signal { downstream in
      // Decisions are made and their events queued under one lock, and sent in that order: a
      // trigger sampling on one thread and the source completing on another cannot send the
      // completion before the sampled value.
      let delivery = OrderedDelivery(SampleState<Value>(), downstream: downstream)
      let error: @Sendable (Failure) -> Void = { error in
        delivery.update { state, outgoing in
          if state.terminated() { outgoing.append(.error(error)) }
        }
      }
      let completed: @Sendable () -> Void = {
        delivery.update { state, outgoing in
          if state.terminated() { outgoing.append(.completed) }
        }
      }
      let disposables = CompoundDisposable()
      disposables.add(
        self.subscribe(
          next: { value in delivery.update { state, _ in state.sourceSent(value) } },
          error: error,
          completed: completed
        ))
      disposables.add(
        trigger.subscribe(
          next: { _ in
            delivery.update { state, outgoing in
              if let value = state.triggered() { outgoing.append(.next(value)) }
            }
          },
          error: error,
          completed: completed
        ))
      return disposables
    }
  }
}
