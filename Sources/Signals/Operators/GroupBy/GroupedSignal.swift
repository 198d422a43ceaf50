/// The values of one key of ``SignalProtocol/groupBy(_:)``: a hot signal with its key.
///
/// A grouped signal is hot, like RAC 2.5's `RACGroupedSignal` (a subject): its values go to
/// whoever is subscribed when they are sent, and a late subscriber misses the earlier ones. To see
/// a group's first value, subscribe inside the callback that receives the group. Once the source
/// has terminated, a new subscriber gets the terminal event at once.
public struct GroupedSignal<Key: Hashable & Sendable, Value: Sendable, Failure: Error>:
  SignalProtocol
{
  /// The key every value of this group has.
  public let key: Key
  let subject: Subject<Value, Failure>

  init(key: Key) {
    self.key = key
    subject = Subject()
  }

  /// Subscribes `subscriber` to the group's values from now on.
  ///
  /// - Parameter subscriber: The receiver of the events.
  /// - Returns: A disposable that ends the subscription.
  @discardableResult
  public func subscribe(_ subscriber: some SubscriberProtocol<Value, Failure>) -> any Disposable {
    subject.subscribe(subscriber)
  }
}
