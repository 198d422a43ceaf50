extension SignalProtocol where Failure == Never {
  /// Turns a signal of events back into the events themselves: the inverse of `materialize()`.
  ///
  ///     source:          -x-y-e-z-|    x = .next(a), y = .next(b), e = .error(#)
  ///     dematerialize(): -a-b-#
  ///
  /// A `.next` value is sent as a value; an `.error` or `.completed` value ends the result with
  /// that event and disposes the source subscription, so later values are never looked at. If the
  /// source completes without an event value that ends it, the result completes too. Works on a
  /// signal that cannot fail (what `materialize()` makes), as RxSwift's `dematerialize()` does;
  /// RAC 2.5 also let a source error through.
  ///
  /// - Returns: The signal the events describe.
  public func dematerialize<NewValue: Sendable, NewFailure: Error>() -> Signal<
    NewValue, NewFailure
  > where Value == Event<NewValue, NewFailure> {
    Signal { downstream in
      self.subscribe(
        next: { downstream.send($0) },
        completed: { downstream.sendCompleted() }
      )
    }
  }
}
