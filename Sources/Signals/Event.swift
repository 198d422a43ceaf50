/// One thing a signal says to a subscriber: a value, an error, or completion.
///
/// A signal's events follow the grammar `next* (error | completed)?`: any number of values, then at
/// most one terminal event, and nothing after it.
public enum Event<Value, Failure: Error> {
  /// A value.
  case next(Value)
  /// A failure; terminal.
  case error(Failure)
  /// Successful completion; terminal.
  case completed

  /// Whether the event ends the signal (`error` or `completed`).
  public var isTerminal: Bool {
    switch self {
    case .next: false
    case .error, .completed: true
    }
  }

  /// The value of a `next` event, else `nil`.
  public var value: Value? {
    if case .next(let value) = self { value } else { nil }
  }

  /// The failure of an `error` event, else `nil`.
  public var failure: Failure? {
    if case .error(let failure) = self { failure } else { nil }
  }

  /// Transforms the value of a `next` event, leaving terminal events as they are.
  ///
  /// - Parameter transform: The function applied to a `next` value.
  /// - Returns: The event with its value transformed.
  public func map<NewValue>(_ transform: (Value) throws -> NewValue) rethrows -> Event<
    NewValue, Failure
  > {
    switch self {
    case .next(let value): .next(try transform(value))
    case .error(let failure): .error(failure)
    case .completed: .completed
    }
  }
}

extension Event: Sendable where Value: Sendable {}
extension Event: Equatable where Value: Equatable, Failure: Equatable {}
extension Event: Hashable where Value: Hashable, Failure: Hashable {}

extension Event: CustomStringConvertible {
  /// `next("a")`, `error(TestError("boom"))` or `completed`.
  public var description: String {
    switch self {
    case .next(let value): "next(\(String(reflecting: value)))"
    case .error(let failure): "error(\(String(reflecting: failure)))"
    case .completed: "completed"
    }
  }
}
