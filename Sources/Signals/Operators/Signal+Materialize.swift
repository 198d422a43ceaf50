extension SignalProtocol {
  /// Sends each event of this signal as a value, then completes; the result never fails.
  ///
  ///     source:        -a-b-#
  ///     materialize(): -x-y-(e|)    x = .next(a), y = .next(b), e = .error(#)
  ///
  ///     source:        -a-|
  ///     materialize(): -x-(c|)      x = .next(a), c = .completed
  ///
  /// The terminal event is sent as a value and followed at once by completion. This is RAC 2.5's
  /// `materialize`, RxSwift's and RxJS's; ``SignalProtocol/dematerialize()`` undoes it.
  ///
  /// - Returns: The signal of events.
  public func materialize() -> Signal<Event<Value, Failure>, Never> {
    Signal { downstream in
      self.subscribe(
        next: { downstream.sendNext(.next($0)) },
        error: {
          downstream.sendNext(.error($0))
          downstream.sendCompleted()
        },
        completed: {
          downstream.sendNext(.completed)
          downstream.sendCompleted()
        }
      )
    }
  }
}
