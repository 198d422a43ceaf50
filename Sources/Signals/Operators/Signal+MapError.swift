extension SignalProtocol {
  /// Transforms the failure; values and completion pass through.
  ///
  ///     source:                  -a-#
  ///     mapError { Wrapped($0) }: -a-#'   (the error, wrapped)
  ///
  /// - Parameter transform: Applied to the failure.
  /// - Returns: The signal with the new failure type.
  public func mapError<NewFailure: Error>(
    _ transform: @escaping @Sendable (Failure) -> NewFailure
  ) -> Signal<Value, NewFailure> {
    forwardingFailure { downstream in { downstream.sendError(transform($0)) } }
  }
}

extension SignalProtocol where Failure == Never {
  /// This signal, which cannot fail, as a signal of failure type `NewFailure` — to combine it with
  /// signals that can.
  ///
  ///     source:                            -a-b-|
  ///     promoteError(to: NetworkError.self): -a-b-|
  ///
  /// ```swift
  /// let clicks: Signal<Click, Never> = …
  /// clicks.promoteError(to: NetworkError.self).flattenMap { _ in fetch }
  /// ```
  ///
  /// - Parameter failure: The failure type of the result.
  /// - Returns: The same events, typed to fail with `NewFailure`.
  public func promoteError<NewFailure: Error>(to failure: NewFailure.Type = NewFailure.self)
    -> Signal<Value, NewFailure>
  {
    Signal { downstream in
      self.subscribe(
        next: { downstream.sendNext($0) },
        completed: { downstream.sendCompleted() }
      )
    }
  }
}
