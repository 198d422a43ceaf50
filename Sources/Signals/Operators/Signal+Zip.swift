extension SignalProtocol {
  /// Pairs the signals' values in order: the first of each, then the second of each, and so on.
  ///
  ///     source:     -a-b-c-|
  ///     other:      ---1---2-3|
  ///     zip(other): ---x---y-(z|)    x = (a, 1), y = (b, 2), z = (c, 3)
  ///
  /// Values wait in a queue per side until the other side sends its counterpart. The result
  /// completes as soon as one side has completed and its queue is exhausted, since no further pair
  /// can come (RAC 2.5's `zipWith:`; RxSwift and RxJS agree). The values the other side has sent
  /// ahead are dropped. The first error from either signal fails the result; ending disposes both
  /// subscriptions.
  ///
  /// - Parameter other: The second signal; its failure type must match.
  /// - Returns: The signal of pairs.
  public func zip<Other: SignalProtocol>(
    _ other: Other
  ) -> Signal<(Value, Other.Value), Failure> where Other.Failure == Failure {
    let other = other.asSignal()
    return Signal { downstream in
      let delivery = OrderedDelivery(ZipState<Value, Other.Value>(), downstream: downstream)
      let disposables = CompoundDisposable()
      disposables.add(
        self.subscribe(
          next: { value in
            delivery.update { state, outgoing in
              if state.second.isEmpty {
                state.first.append(value)
              } else {
                outgoing.append(.next((value, state.second.removeFirst())))
              }
              if state.isExhausted { outgoing.append(.completed) }
            }
          },
          error: { failure in delivery.update { _, outgoing in outgoing.append(.error(failure)) } },
          completed: {
            delivery.update { state, outgoing in
              state.completed.0 = true
              if state.isExhausted { outgoing.append(.completed) }
            }
          }
        ))
      disposables.add(
        other.subscribe(
          next: { value in
            delivery.update { state, outgoing in
              if state.first.isEmpty {
                state.second.append(value)
              } else {
                outgoing.append(.next((state.first.removeFirst(), value)))
              }
              if state.isExhausted { outgoing.append(.completed) }
            }
          },
          error: { failure in delivery.update { _, outgoing in outgoing.append(.error(failure)) } },
          completed: {
            delivery.update { state, outgoing in
              state.completed.1 = true
              if state.isExhausted { outgoing.append(.completed) }
            }
          }
        ))
      return disposables
    }
  }
}

/// The values each side sent ahead of the other, and whether each side has completed.
struct ZipState<First: Sendable, Second: Sendable>: Sendable {
  var first: [First] = []
  var second: [Second] = []
  var completed = (false, false)

  /// Whether a completed side has nothing left to pair, so no pair can come.
  var isExhausted: Bool {
    (completed.0 && first.isEmpty) || (completed.1 && second.isEmpty)
  }
}
