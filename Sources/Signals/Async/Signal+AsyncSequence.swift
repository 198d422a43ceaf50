extension Signal {
  /// An `AsyncSequence` as a cold signal: each subscription iterates the sequence in a task of
  /// its own, sending each element as a value, then completion — or the error the iteration
  /// throws. Disposing the subscription cancels that task.
  ///
  /// ```swift
  /// let lines = Signal(file.lines)            // AsyncSequence<String, any Error>
  /// let ticks = Signal(clock.timer(every: …))  // a sequence that cannot fail: Signal<…, Never>
  /// ```
  ///
  /// The task starts when `subscribe` creates it, so the first element is asked for after
  /// `subscribe` returns. Under a `TestScheduler` that subscribes (through `record`, `expect` or a
  /// table) the task is driven by the scheduler: each subscription makes its first pull at its own
  /// tick, and the elements arrive in virtual time.
  ///
  /// - Parameter sequence: The sequence to iterate, once per subscription.
  public init<S: AsyncSequence & Sendable>(_ sequence: S)
  where S.Element == Value, S.Failure == Failure {
    self.init { subscriber in
      let task = Task {
        var iterator = sequence.makeAsyncIterator()
        do throws(Failure) {
          while let element = try await iterator.next(isolation: nil) {
            subscriber.sendNext(element)
          }
          subscriber.sendCompleted()
        } catch {
          subscriber.sendError(error)
        }
      }
      return AnyDisposable { task.cancel() }
    }
  }
}
