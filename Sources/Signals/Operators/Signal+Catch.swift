extension SignalProtocol {
  /// On error, switches to `replacement` instead of failing.
  ///
  ///     source:            -a-#
  ///     replacement:          x|
  ///     catch(to: x|):     -a-(x|)
  ///
  /// - Parameter replacement: Subscribed when this signal fails.
  /// - Returns: A signal that fails only if `replacement` does.
  public func `catch`<NewFailure: Error>(
    to replacement: Signal<Value, NewFailure>
  ) -> Signal<Value, NewFailure> {
    self.catch { _ in replacement }
  }

  /// On error, switches to the signal `handler` makes from the error.
  ///
  /// - Parameter handler: Makes the replacement from the failure.
  /// - Returns: A signal that fails only if the replacement does.
  public func `catch`<NewFailure: Error>(
    _ handler: @escaping @Sendable (Failure) -> Signal<Value, NewFailure>
  ) -> Signal<Value, NewFailure> {
    Signal { downstream in
      let disposables = CompoundDisposable()
      disposables.add(
        self.subscribe(
          next: { downstream.sendNext($0) },
          error: { disposables.add(handler($0).subscribe(downstream)) },
          completed: { downstream.sendCompleted() }
        ))
      return disposables
    }
  }
}
