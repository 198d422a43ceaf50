extension SignalProtocol {
  /// Sends the last `count` values once this signal completes, then completes.
  ///
  ///     source:      -a-b-c-d-|
  ///     takeLast(2): ---------(cd|)
  ///
  ///     source:      -a-b-#
  ///     takeLast(2): -----#           (the buffered values are dropped)
  ///
  /// The values are kept until completion, at most `count` of them, and sent in their order all at
  /// the completion's tick. An error is passed on at once and drops what was kept. Each
  /// subscription keeps its own values. This matches RAC 2.5's `takeLast:`, RxSwift and RxJS.
  ///
  /// - Parameter count: How many of the last values to send; `0` or less sends only the completion.
  /// - Returns: The signal of the last values.
  public func takeLast(_ count: Int) -> Signal<Value, Failure> {
    let count = max(0, count)
    return Signal { downstream in
      // A ring of the last `count` values: `start` is the oldest once the ring is full.
      let kept = Locked((values: [Value](), start: 0))
      if count > 0 { kept.withLock { $0.values.reserveCapacity(count) } }
      return self.subscribe(
        next: { value in
          guard count > 0 else { return }
          kept.withLock { kept in
            if kept.values.count < count {
              kept.values.append(value)
            } else {
              kept.values[kept.start] = value
              kept.start = (kept.start + 1) % count
            }
          }
        },
        error: { downstream.sendError($0) },
        completed: {
          let values = kept.withLock { kept -> [Value] in
            defer { kept = ([], 0) }
            return Array(kept.values[kept.start...] + kept.values[..<kept.start])
          }
          for value in values { downstream.sendNext(value) }
          downstream.sendCompleted()
        }
      )
    }
  }
}
