public import Signals

/// What one inner signal of a higher-order signal sent, with times counted from the frame it was
/// sent at.
///
/// A ``HigherOrderTestSubscriber`` records each inner signal from the moment the outer signal sends
/// it, and stamps the inner events relative to that moment, as RxJS does for a value that is itself
/// an observable: an inner signal sent at frame 5 that sends `x` at frame 6 is recorded as
/// `next("x") @ 1`. It prints as its marble:
///
/// ```swift
/// RecordedSignal<String, TestError>(events: [.next(1, "x"), .completed(2)]).description  // "-x|"
/// ```
public struct RecordedSignal<Value, Failure: Error>: CustomStringConvertible {
  /// The inner signal's events, with times counted from the frame it was sent at.
  public var events: [Recorded<Event<Value, Failure>>]

  /// Creates a recording.
  ///
  /// - Parameter events: The events, with times counted from the frame the signal was sent at.
  public init(events: [Recorded<Event<Value, Failure>>]) {
    self.events = events
  }

  /// The events as a marble, drawn with dashes however long the waits (`-x|`).
  public var description: String {
    MarblePrinter.diagram(
      events, tick: MarbleTime.tickAttoseconds(.milliseconds(1)), longestDashRun: .max,
      isSame: nil
    ).marbles
  }
}

extension RecordedSignal: Sendable where Value: Sendable {}
extension RecordedSignal: Equatable where Value: Equatable, Failure: Equatable {}
