extension SignalProtocol {
  /// This signal as an `AsyncSequence` of its values, whose iteration throws its `Failure`.
  ///
  /// ```swift
  /// for try await value in signal.values { … }   // a NetworkError ends the loop with that error
  /// for await tap in taps.values { … }            // Failure == Never: no `try`
  /// ```
  ///
  /// Each iterator is a subscription of its own, made by its first `next()`: a cold signal starts
  /// then, and a test signal logs it. The values sent meanwhile are buffered without bound, in order,
  /// until they are asked for; completion ends the iteration after them, and an error is thrown
  /// after them. Cancelling the iterating task, or releasing the iterator, disposes the
  /// subscription at once (a cancelled `next()` returns `nil`).
  public var values: SignalValues<Value, Failure> {
    SignalValues(asSignal())
  }
}

/// A signal's values as an `AsyncSequence` (see ``SignalProtocol/values``).
///
/// Typed-throws `AsyncSequence`, so it needs macOS 15, iOS 18, tvOS 18, watchOS 11 or visionOS 2 —
/// the platforms the package requires.
public struct SignalValues<Value: Sendable, Failure: Error>: AsyncSequence, Sendable {
  private let signal: Signal<Value, Failure>

  init(_ signal: Signal<Value, Failure>) {
    self.signal = signal
  }

  /// A new iterator: a subscription of its own, made by its first `next()`.
  public func makeAsyncIterator() -> Iterator {
    Iterator(SignalValuesBuffer(signal))
  }

  /// Iterates one subscription to the signal.
  public struct Iterator: AsyncIteratorProtocol {
    private let buffer: SignalValuesBuffer<Value, Failure>

    init(_ buffer: SignalValuesBuffer<Value, Failure>) {
      self.buffer = buffer
    }

    /// The next value; `nil` after completion or cancellation.
    ///
    /// - Throws: The signal's failure, after the values sent before it.
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation)
      async throws(Failure) -> Value?
    {
      try await buffer.next().get()
    }

    /// The next value; `nil` after completion or cancellation.
    ///
    /// - Throws: The signal's failure, after the values sent before it.
    public mutating func next() async throws(Failure) -> Value? {
      try await buffer.next().get()
    }
  }
}

/// One iterator's subscription and the values it has not taken yet.
final class SignalValuesBuffer<Value: Sendable, Failure: Error>: Sendable {
  private struct State {
    var isSubscribed = false
    var subscription: (any Disposable)?
    /// Values not taken yet.
    var values = FIFOQueue<Value>()
    /// How the signal ended (or `nil` for a cancelled or disposed iteration), once it has.
    var end: Result<Value?, Failure>?
    var waiting: UnsafeContinuation<Result<Value?, Failure>, Never>?
  }

  private let signal: Signal<Value, Failure>
  private let state = Locked(State())

  init(_ signal: Signal<Value, Failure>) {
    self.signal = signal
  }

  deinit {
    // The iterator was released: nobody will ask for more.
    state.withLock { $0.subscription }?.dispose()
  }

  /// The next value, waiting for it if there is none yet.
  func next() async -> Result<Value?, Failure> {
    // A task cancelled before it ever asked does not subscribe at all.
    if Task.isCancelled {
      finish(with: .success(nil), disposing: true)
    } else {
      subscribeIfNeeded()
    }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { continuation in
        let result = state.withLock { state -> Result<Value?, Failure>? in
          if let value = state.values.popFirst() { return .success(value) }
          if let end = state.end { return end }
          state.waiting = continuation
          return nil
        }
        if let result { continuation.resume(returning: result) }
      }
    } onCancel: {
      self.finish(with: .success(nil), disposing: true)
    }
  }

  private func subscribeIfNeeded() {
    let needed = state.withLock { state -> Bool in
      defer { state.isSubscribed = true }
      return !state.isSubscribed
    }
    guard needed else { return }
    let subscription = signal.subscribe(
      next: { [weak self] value in self?.received(value) },
      error: { [weak self] failure in self?.finish(with: .failure(failure), disposing: false) },
      completed: { [weak self] in self?.finish(with: .success(nil), disposing: false) })
    // Over already — cancelled meanwhile, or the signal ended inside `subscribe` — the
    // subscription has nothing left to do.
    let isOver = state.withLock { state -> Bool in
      guard state.end == nil else { return true }
      state.subscription = subscription
      return false
    }
    if isOver { subscription.dispose() }
  }

  private func received(_ value: Value) {
    let waiting = state.withLock { state -> UnsafeContinuation<Result<Value?, Failure>, Never>? in
      guard state.end == nil else { return nil }
      if let waiting = state.waiting {
        state.waiting = nil
        return waiting
      }
      state.values.append(value)
      return nil
    }
    waiting?.resume(returning: .success(value))
  }

  /// Ends the iteration: the values still buffered come first, unless it was cancelled.
  private func finish(with end: Result<Value?, Failure>, disposing: Bool) {
    let (waiting, subscription) = state.withLock {
      state -> (UnsafeContinuation<Result<Value?, Failure>, Never>?, (any Disposable)?) in
      guard state.end == nil else { return (nil, nil) }
      state.end = end
      if disposing { state.values.removeAll() }
      let waiting = state.waiting
      state.waiting = nil
      return (waiting, disposing ? state.subscription : nil)
    }
    subscription?.dispose()
    waiting?.resume(returning: end)
  }
}
