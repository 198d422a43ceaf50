/// The pure state of one `deliver(on:)` subscription: the events received and not yet delivered,
/// and the disposable of the delivery action.
///
/// At most one delivery action is scheduled at a time: `append` asks for one only when the queue was
/// empty, and `delivered` says whether the action must schedule the next. Each request is numbered,
/// because on a concurrent scheduler the action asked for second can run, and ask for a third,
/// before the disposable of the second has been stored: storing it late must not replace (or
/// dispose) the third's. The storage owns the lock; this type only decides.
struct DeliveryQueue<Value: Sendable, Failure: Error> {
  private var events: [Event<Value, Failure>] = []
  private var head = 0
  /// Whether a delivery action is scheduled or running. It stays set while the action sends, so a
  /// later event cannot start a second action that overtakes the one still sending.
  private var isDelivering = false
  /// How many delivery actions have been asked for: the number of the newest.
  private var actionsAsked = 0
  /// The disposable of the newest delivery action stored so far, with its number.
  private var pending: (number: Int, disposable: any Disposable)?
  private var isDisposed = false

  /// Adds an event.
  ///
  /// - Returns: The number of the delivery action to schedule, or `nil` if one is already
  ///   scheduled or running.
  mutating func append(_ event: Event<Value, Failure>) -> Int? {
    events.append(event)
    guard !isDelivering else { return nil }
    isDelivering = true
    return askForAction()
  }

  /// Removes the oldest event, for the delivery action to send; the queue must not be empty.
  mutating func takeOldest() -> Event<Value, Failure> {
    defer { head += 1 }
    return events[head]
  }

  /// The delivery action has sent its event.
  ///
  /// - Returns: The number of the next delivery action to schedule, if more events wait and the
  ///   subscription goes on; if none wait, the next event appended asks for one.
  mutating func delivered() -> Int? {
    guard head == events.count else { return isDisposed ? nil : askForAction() }
    events.removeAll(keepingCapacity: true)
    head = 0
    isDelivering = false
    return nil
  }

  /// Keeps the disposable of delivery action `number`, unless a newer one is kept already.
  ///
  /// - Returns: A disposable to dispose now: this one, if the subscription was disposed.
  mutating func keep(_ disposable: any Disposable, for number: Int) -> (any Disposable)? {
    guard !isDisposed else { return disposable }
    if let pending, pending.number > number { return nil }
    pending = (number, disposable)
    return nil
  }

  /// Ends the subscription: no further action is asked for.
  ///
  /// - Returns: The disposable of the pending action, to dispose.
  mutating func dispose() -> (any Disposable)? {
    isDisposed = true
    defer { pending = nil }
    return pending?.disposable
  }

  private mutating func askForAction() -> Int {
    actionsAsked += 1
    return actionsAsked
  }
}
