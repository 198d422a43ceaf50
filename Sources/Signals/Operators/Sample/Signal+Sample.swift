extension SignalProtocol {
  /// Sends this signal's latest value each time `trigger` sends, if there is a new one since the
  /// last sample.
  ///
  ///     source:      -a-b----c--d|
  ///     trigger:     ---x--x---x---|
  ///     sample(tr):  ---b------c-|
  ///
  /// A trigger value with nothing new to sample sends nothing. Completes when either the source or
  /// the trigger completes (a value not yet sampled is dropped); an error from either fails at once.
  /// Either terminating, or disposing the subscription, disposes both subscriptions.
  ///
  /// **Differences.** RAC 2.5's `sample:` sent the latest value on every trigger value, repeating
  /// it when nothing new had arrived; this sends each value at most once, as RxJS's `sample` and
  /// RxSwift's `sample(_:)` do. RxJS's `sample` ignores the trigger's completion and runs until the
  /// source completes; here, as in RAC, nothing more could be sent, so it completes.
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
