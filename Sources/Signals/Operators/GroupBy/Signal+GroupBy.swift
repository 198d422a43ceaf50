extension SignalProtocol {
  /// Splits this signal into one hot signal per key, sending each group when its first value comes.
  ///
  ///     source:             -a-b-A-B-|
  ///     groupBy(lowercase): -x-y-----|    x = group "a", y = group "b"
  ///     group "a":          -a---A---|    (to a subscriber from the moment x is sent)
  ///     group "b":          ---b---B-|
  ///
  /// A new key's group is sent first, then its first value is sent to the group, so a subscriber
  /// that subscribes inside the callback receiving the group gets every value of it. Groups are hot
  /// (see ``GroupedSignal``). When this signal completes or fails, the result does and then every
  /// group, in the order they were made. Each subscription to the result makes its own groups.
  ///
  /// This is RAC 2.5's `groupBy:`. Disposing the subscription to the result disposes the source
  /// subscription, and the groups then receive nothing more — not even a terminal event. RxSwift and
  /// RxJS differ: there a group's subscribers keep the source subscribed after the outer
  /// subscription is disposed, and RxJS can end groups by a duration selector.
  ///
  /// - Parameter key: Gives each value's key; it runs once per value.
  /// - Returns: The signal of groups.
  public func groupBy<Key: Hashable & Sendable>(
    _ key: @escaping @Sendable (Value) -> Key
  ) -> Signal<GroupedSignal<Key, Value, Failure>, Failure> {
    Signal { downstream in
      let groups = Locked(GroupByState<Key, Value, Failure>())
      return self.subscribe(
        next: { value in
          let key = key(value)
          let (group, isNew) = groups.withLock { groups in
            if let group = groups.byKey[key] { return (group, false) }
            let group = GroupedSignal<Key, Value, Failure>(key: key)
            groups.byKey[key] = group
            groups.inOrder.append(group)
            return (group, true)
          }
          if isNew { downstream.sendNext(group) }
          group.subject.sendNext(value)
        },
        error: { failure in
          downstream.sendError(failure)
          for group in groups.withLock({ $0.inOrder }) { group.subject.sendError(failure) }
        },
        completed: {
          downstream.sendCompleted()
          for group in groups.withLock({ $0.inOrder }) { group.subject.sendCompleted() }
        }
      )
    }
  }
}

/// The groups of one `groupBy` subscription, by key and in the order they were made.
struct GroupByState<Key: Hashable & Sendable, Value: Sendable, Failure: Error>: Sendable {
  var byKey: [Key: GroupedSignal<Key, Value, Failure>] = [:]
  var inOrder: [GroupedSignal<Key, Value, Failure>] = []
}
