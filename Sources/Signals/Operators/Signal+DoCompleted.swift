extension SignalProtocol {
  /// Runs `sideEffect` when this signal completes, before passing the completion on (RAC 2.5's
  /// `doCompleted:`).
  ///
  ///     source:              -a-|
  ///     doCompleted(log):    -a-|   (log() runs just before the completion is sent)
  ///
  /// - Parameter sideEffect: Runs on completion, first.
  /// - Returns: The same events.
  public func doCompleted(_ sideEffect: @escaping @Sendable () -> Void) -> Signal<Value, Failure> {
    Signal { downstream in
      self.subscribe(
        next: { downstream.sendNext($0) },
        error: { downstream.sendError($0) },
        completed: {
          sideEffect()
          downstream.sendCompleted()
        }
      )
    }
  }
}
