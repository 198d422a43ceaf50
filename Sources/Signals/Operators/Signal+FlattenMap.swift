extension SignalProtocol {
  /// Maps each value to a signal and merges the events of all of them.
  ///
  ///     source:               -a---b-----|
  ///     transform(a):          -1-2|
  ///     transform(b):              -3|
  ///     flattenMap(transform): --1-23------|
  ///
  /// Completes when the source and every inner signal have completed; the first error from any of
  /// them ends the result and disposes the rest. Each inner signal is subscribed when its value
  /// arrives, so a cold inner signal runs once per value (seed 004's hidden subscriptions).
  ///
  /// - Parameter transform: Makes a signal from each value.
  /// - Returns: The merged signal.
  public func flattenMap<NewValue: Sendable>(
    _ transform: @escaping @Sendable (Value) -> Signal<NewValue, Failure>
  ) -> Signal<NewValue, Failure> {
    Signal { downstream in
      let group = MergeGroup(downstream)
      group.add(
        self.subscribe(
          next: { group.subscribe(to: transform($0)) },
          error: { downstream.sendError($0) },
          completed: { group.finishOne() }
        ))
      return group.disposables
    }
  }
}

/// The bookkeeping of a merge: how many signals are still running (the outer one counts), and all
/// their subscriptions.
final class MergeGroup<Value: Sendable, Failure: Error>: Sendable {
  let downstream: any SubscriberProtocol<Value, Failure>
  let disposables = CompoundDisposable()
  private let running = Locked(1)

  init(_ downstream: any SubscriberProtocol<Value, Failure>) {
    self.downstream = downstream
  }

  func add(_ disposable: any Disposable) {
    disposables.add(disposable)
  }

  /// Subscribes to an inner signal, counting it as running until it completes.
  func subscribe(to inner: Signal<Value, Failure>) {
    running.withLock { $0 += 1 }
    let downstream = downstream
    disposables.add(
      inner.subscribe(
        next: { downstream.sendNext($0) },
        error: { downstream.sendError($0) },
        completed: { self.finishOne() }
      ))
  }

  /// Counts one signal as completed; completes the downstream when none is left.
  func finishOne() {
    let remaining = running.withLock { running -> Int in
      running -= 1
      return running
    }
    if remaining == 0 { downstream.sendCompleted() }
  }
}
