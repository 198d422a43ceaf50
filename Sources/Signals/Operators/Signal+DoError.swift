extension SignalProtocol {
  /// Runs `sideEffect` with the failure before passing the failure on (RAC 2.5's `doError:`).
  ///
  ///     source:          -a-#
  ///     doError(log):    -a-#   (log(error) runs just before the error is sent)
  ///
  /// - Parameter sideEffect: Runs with the failure, first.
  /// - Returns: The same events.
  public func doError(_ sideEffect: @escaping @Sendable (Failure) -> Void)
    -> Signal<Value, Failure>
  {
    forwardingFailure { downstream in
      { failure in
        sideEffect(failure)
        downstream.sendError(failure)
      }
    }
  }
}
