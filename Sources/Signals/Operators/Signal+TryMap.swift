extension SignalProtocol {
  /// Transforms each value with a closure that may throw this signal's failure; a thrown error
  /// becomes the signal's error and disposes the source subscription.
  ///
  ///     source:                      -1-x-3-|
  ///     tryMap(parse):               -1-#        (parse("x") threw)
  ///
  /// ```swift
  /// let numbers = lines.tryMap { (line) throws(ParseError) -> Int in
  ///   guard let number = Int(line) else { throw ParseError.notANumber(line) }
  ///   return number
  /// }
  /// ```
  ///
  /// - Parameter transform: Applied to each value; what it throws fails the signal.
  /// - Returns: The transformed signal.
  public func tryMap<NewValue: Sendable>(
    _ transform: @escaping @Sendable (Value) throws(Failure) -> NewValue
  ) -> Signal<NewValue, Failure> {
    forwardingValues { downstream in
      { value in
        do throws(Failure) {
          downstream.sendNext(try transform(value))
        } catch {
          // The downstream is a `Signal`'s subscriber: its error disposes the source.
          downstream.sendError(error)
        }
      }
    }
  }
}
