/// The pure state of one `deliver(on:)` subscription: the events received and not yet delivered.
///
/// At most one delivery action is scheduled at a time: `append` asks for one only when the queue was
/// empty, and `takeOldest` says whether the action must schedule the next. The storage owns the lock
/// and the pending action; this type only decides.
struct DeliveryQueue<Value: Sendable, Failure: Error> {
  private var events: [Event<Value, Failure>] = []
  private var head = 0
  /// Whether a delivery action is scheduled or running. It stays set while the action sends, so a
  /// later event cannot start a second action that overtakes the one still sending.
  private var isDelivering = false

  /// Adds an event.
  ///
  /// - Returns: Whether a delivery action must be scheduled (none is scheduled or running).
  mutating func append(_ event: Event<Value, Failure>) -> Bool {
    events.append(event)
    guard !isDelivering else { return false }
    isDelivering = true
    return true
  }

  /// Removes the oldest event, for the delivery action to send; the queue must not be empty.
  mutating func takeOldest() -> Event<Value, Failure> {
    defer { head += 1 }
    return events[head]
  }

  /// The delivery action has sent its event.
  ///
  /// - Returns: Whether more events wait (the action must schedule the next one); if not, the next
  ///   event appended schedules one.
  mutating func delivered() -> Bool {
    guard head == events.count else { return true }
    events.removeAll(keepingCapacity: true)
    head = 0
    isDelivering = false
    return false
  }
}
