public import Signals

/// A value stamped with the virtual tick it happened at.
///
/// Recorded events print as `next("a") @ 2`, so a list reads `[next("a") @ 2, completed @ 8]`.
public struct Recorded<Value> {
  /// The tick.
  public var time: Int
  /// What happened.
  public var value: Value

  /// Creates a recorded value.
  ///
  /// - Parameters:
  ///   - time: The tick.
  ///   - value: What happened.
  public init(time: Int, value: Value) {
    self.time = time
    self.value = value
  }
}

extension Recorded {
  /// A `next` event at tick `time`.
  ///
  /// - Parameters:
  ///   - time: The tick.
  ///   - element: The value sent.
  /// - Returns: The recorded event.
  public static func next<Element, Failure>(_ time: Int, _ element: Element) -> Recorded
  where Value == Event<Element, Failure> {
    Recorded(time: time, value: .next(element))
  }

  /// An `error` event at tick `time`.
  ///
  /// - Parameters:
  ///   - time: The tick.
  ///   - error: The failure sent.
  /// - Returns: The recorded event.
  public static func error<Element, Failure>(_ time: Int, _ error: Failure) -> Recorded
  where Value == Event<Element, Failure> {
    Recorded(time: time, value: .error(error))
  }

  /// A `completed` event at tick `time`.
  ///
  /// - Parameter time: The tick.
  /// - Returns: The recorded event.
  public static func completed<Element, Failure>(_ time: Int) -> Recorded
  where Value == Event<Element, Failure> {
    Recorded(time: time, value: .completed)
  }
}

extension Recorded: Sendable where Value: Sendable {}
extension Recorded: Equatable where Value: Equatable {}
extension Recorded: Hashable where Value: Hashable {}

extension Recorded: CustomStringConvertible {
  /// `next("a") @ 2`.
  public var description: String { "\(value) @ \(time)" }
}
