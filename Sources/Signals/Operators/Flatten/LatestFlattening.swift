extension SignalProtocol where Value: SignalProtocol, Value.Failure == Failure {
  /// `flatten(.latest)`: each inner signal replaces the one before.
  func latestFlattened() -> Signal<Value.Value, Failure> {
    Signal { downstream in
      let delivery = OrderedDelivery(LatestState(), downstream: downstream)
      let current = SerialDisposable()
      let disposables = CompoundDisposable([current])
      disposables.add(
        self.subscribe(
          next: { inner in
            // The outer signal's callbacks never overlap (a sink serializes them, and queues a
            // re-entrant one), so no other inner signal can arrive until this one is subscribed.
            let generation = delivery.update { state, _ -> Int in
              state.generation += 1
              state.isInnerActive = true
              return state.generation
            }
            // The previous inner signal is disposed before the next one is subscribed; its events
            // still in flight are dropped by the generation check.
            current.inner = nil
            current.inner = inner.subscribe(
              next: { value in
                delivery.update { state, outgoing in
                  if state.generation == generation { outgoing.append(.next(value)) }
                }
              },
              error: { failure in
                delivery.update { state, outgoing in
                  if state.generation == generation { outgoing.append(.error(failure)) }
                }
              },
              completed: {
                delivery.update { state, outgoing in
                  guard state.generation == generation else { return }
                  state.isInnerActive = false
                  if state.isOuterCompleted { outgoing.append(.completed) }
                }
              }
            )
          },
          error: { failure in delivery.update { $1.append(.error(failure)) } },
          completed: {
            delivery.update { state, outgoing in
              state.isOuterCompleted = true
              if !state.isInnerActive { outgoing.append(.completed) }
            }
          }
        ))
      return disposables
    }
  }
}

/// The state of one `flatten(.latest)` subscription.
struct LatestState: Sendable {
  /// Counts the inner signals; only the newest one's events pass.
  var generation = 0
  /// Whether the newest inner signal has yet to complete.
  var isInnerActive = false
  var isOuterCompleted = false
}
