extension SignalProtocol where Value: Equatable {
  /// Drops each value that equals (`==`) the one just before it.
  ///
  ///     source:                 -a-a-b-b-a-|
  ///     distinctUntilChanged(): -a---b---a-|
  ///
  /// Only consecutive repeats are dropped: a value that returns later passes again. The first value
  /// always passes. Each subscription compares its own values. Errors and completion pass through.
  ///
  /// - Returns: The signal without consecutive repeats.
  public func distinctUntilChanged() -> Signal<Value, Failure> {
    forwardingValues { downstream in
      let last = Locked<Value?>(nil)
      return { value in
        // Values arrive one at a time; `==` is user code, so it runs outside the lock.
        let previous = last.withLock { $0 }
        if let previous, previous == value { return }
        last.withLock { $0 = value }
        downstream.sendNext(value)
      }
    }
  }
}
