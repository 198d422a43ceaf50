extension SignalProtocol {
  /// A signal that subscribes to this one and hands each value to `onNext` together with the
  /// downstream subscriber; errors and completion are forwarded unchanged.
  ///
  /// `makeOnNext` runs once per subscription, so per-subscription state (a counter) lives in it.
  func forwardingValues<NewValue: Sendable>(
    _ makeOnNext:
      @escaping @Sendable (_ downstream: any SubscriberProtocol<NewValue, Failure>) ->
      @Sendable (Value) -> Void
  ) -> Signal<NewValue, Failure> {
    Signal { downstream in
      self.subscribe(
        next: makeOnNext(downstream),
        error: { downstream.sendError($0) },
        completed: { downstream.sendCompleted() }
      )
    }
  }

  /// A signal that subscribes to this one and hands its failure to `onError` together with the
  /// downstream subscriber; values and completion are forwarded unchanged. The failure-side twin of
  /// ``forwardingValues(_:)``.
  func forwardingFailure<NewFailure: Error>(
    _ makeOnError:
      @escaping @Sendable (_ downstream: any SubscriberProtocol<Value, NewFailure>) ->
      @Sendable (Failure) -> Void
  ) -> Signal<Value, NewFailure> {
    Signal { downstream in
      self.subscribe(
        next: { downstream.sendNext($0) },
        error: makeOnError(downstream),
        completed: { downstream.sendCompleted() }
      )
    }
  }

  /// Subscribes `downstream` to this signal, forwarding values through `onNext` (or dropping them
  /// when it is `nil`) and errors unchanged; when this signal completes, subscribes `downstream` to
  /// `next()`. The shape of `concat` and `then`.
  func subscribe<NewValue: Sendable>(
    _ downstream: any SubscriberProtocol<NewValue, Failure>,
    forwardingValues onNext: (@Sendable (Value) -> Void)?,
    thenSubscribingTo next: @escaping @Sendable () -> Signal<NewValue, Failure>
  ) -> any Disposable {
    // A compound, not a serial disposable: if this signal completes synchronously inside
    // `subscribe`, the follow-up subscription is added before this one, and must survive it.
    let disposables = CompoundDisposable()
    disposables.add(
      subscribe(
        next: onNext,
        error: { downstream.sendError($0) },
        completed: { disposables.add(next().subscribe(downstream)) }
      ))
    return disposables
  }
}
