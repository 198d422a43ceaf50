/// The pure state of one `deliver(on:)` subscription: the events received and not yet delivered.
///
/// At most one delivery action is scheduled at a time: `append` asks for one only when the queue was
/// empty, and `takeOldest` says whether the action must schedule the next. The storage owns the lock
/// and the pending action; this type only decides.
struct DeliveryQueue<Value: Sendable, Failure: Error> {
  private var events: [Event<Value, Failure>] = []
  private var head = 0

  /// Adds an event.
  ///
  /// - Returns: Whether a delivery action must be scheduled (the queue was empty, so none is).
  mutating func append(_ event: Event<Value, Failure>) -> Bool {
    events.append(event)
    return events.count - head == 1
  }

  /// Removes the oldest event; the queue must not be empty.
  ///
  /// - Returns: The event, and whether more wait (the delivery action must schedule the next).
  mutating func takeOldest() -> (Event<Value, Failure>, more: Bool) {
    let event = events[head]
    head += 1
    if head == events.count {
      events.removeAll(keepingCapacity: true)
      head = 0
      return (event, false)
    }
    return (event, true)
  }
}
