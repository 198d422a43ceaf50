public import Signals

/// Why a list of recorded events cannot drive a test signal: it breaks the event grammar
/// `next* (error | completed)?`, goes back in time, or (for a cold signal) starts before its
/// subscription.
public struct EventListError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Where in the list the problem is.
  public var index: Int
  /// What is wrong.
  public var message: String

  @usableFromInline
  init(index: Int, message: String) {
    self.index = index
    self.message = message
  }

  /// `event N: message`.
  public var description: String { "event \(index): \(message)" }

  /// Checks a recorded event list: times never decrease, nothing follows a terminal event, and —
  /// for a cold signal — no event happens before the subscription (tick 0).
  ///
  /// Inlinable, so that a caller that knows the types runs it specialized: unspecialized, each step
  /// looked up the event types' metadata in the runtime's cache.
  @inlinable
  static func validate<Value, Failure>(
    _ events: [Recorded<Event<Value, Failure>>], cold: Bool
  ) throws(EventListError) {
    var previous: Recorded<Event<Value, Failure>>?
    for (index, event) in events.enumerated() {
      if cold, event.time < 0 {
        throw EventListError(
          index: index,
          message: "\(event) is before the subscription; a cold signal's times are offsets from "
            + "its subscription and cannot be negative")
      }
      if let previous {
        if previous.value.isTerminal {
          throw EventListError(
            index: index,
            message: "\(event) comes after \(previous); nothing may follow a terminal event")
        }
        if event.time < previous.time {
          throw EventListError(
            index: index,
            message: "\(event) is earlier than \(previous) before it; list events in time order")
        }
      }
      previous = event
    }
  }
}
