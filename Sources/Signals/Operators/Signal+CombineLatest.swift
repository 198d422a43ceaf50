extension SignalProtocol {
  /// Sends the latest value of each signal as a pair, whenever either sends, once both have sent.
  ///
  ///     source:               -a---b---c-|
  ///     other:                ---1---2-----|
  ///     combineLatest(other): ---w-x-y-z---|    w = (a, 1), x = (b, 1), y = (b, 2), z = (c, 2)
  ///
  /// Completion follows RAC 2.5's `combineLatestWith:`: the result completes once *both* signals
  /// have completed — even when one completed without a value, so that no pair can ever come.
  /// RxSwift's and RxJS's `combineLatest` complete at once in that case. The first error from
  /// either signal fails the result and disposes the other subscription. Both signals are
  /// subscribed at subscription, this one first. Pairs are sent in the order the values arrived,
  /// also when the two signals send on different threads.
  ///
  /// - Parameter other: The second signal; its failure type must match.
  /// - Returns: The signal of latest pairs.
  public func combineLatest<Other: SignalProtocol>(
    _ other: Other
  ) -> Signal<(Value, Other.Value), Failure> where Other.Failure == Failure {
    let other = other.asSignal()
    return Signal { downstream in
      let delivery = OrderedDelivery(
        CombineLatestState<Value, Other.Value>(), downstream: downstream)
      let disposables = CompoundDisposable()
      disposables.add(
        self.subscribe(
          next: { value in
            delivery.update { state, outgoing in
              state.latest.0 = value
              if let latest = state.latest.1 { outgoing.append(.next((value, latest))) }
            }
          },
          error: { failure in delivery.update { _, outgoing in outgoing.append(.error(failure)) } },
          completed: {
            delivery.update { state, outgoing in
              state.completed.0 = true
              if state.completed.1 { outgoing.append(.completed) }
            }
          }
        ))
      disposables.add(
        other.subscribe(
          next: { value in
            delivery.update { state, outgoing in
              state.latest.1 = value
              if let latest = state.latest.0 { outgoing.append(.next((latest, value))) }
            }
          },
          error: { failure in delivery.update { _, outgoing in outgoing.append(.error(failure)) } },
          completed: {
            delivery.update { state, outgoing in
              state.completed.1 = true
              if state.completed.0 { outgoing.append(.completed) }
            }
          }
        ))
      return disposables
    }
  }
}

/// The latest value of each side and whether each side has completed.
struct CombineLatestState<First: Sendable, Second: Sendable>: Sendable {
  var latest: (First?, Second?) = (nil, nil)
  var completed = (false, false)
}
