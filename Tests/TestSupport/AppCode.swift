// App code as apps write it — real sleeps, real clocks, no injection — which the world tests
// await directly (Tests/MarblesTests/World, Tests/MarblesXCTests/AwaitsDriveXCTests.swift).

/// An actor whose method starts work of its own in an unstructured task, and returns at once.
public actor Warmer {
  /// What happened, with the `ContinuousClock` reading of each.
  public private(set) var log: [(String, ContinuousClock.Instant)] = []

  public init() {}

  public func warm() {
    Task {
      try await Task.sleep(for: .seconds(2))
      self.note("warm")
    }
  }

  private func note(_ what: String) {
    log.append((what, ContinuousClock.now))
  }
}

/// `count` ticks, one every `interval`, from a producer task that sleeps between them; finishes
/// after the last, and stops the producer when the consumer goes away.
public func ticks(_ count: Int, every interval: Duration) -> AsyncStream<Int> {
  AsyncStream { continuation in
    let producer = Task {
      for tick in 1...count {
        try await Task.sleep(for: interval)
        continuation.yield(tick)
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in producer.cancel() }
  }
}

/// Whole milliseconds from `start` to `end`.
public func milliseconds(from start: ContinuousClock.Instant, to end: ContinuousClock.Instant)
  -> Int64
{
  let (seconds, attoseconds) = start.duration(to: end).components
  return seconds * 1000 + attoseconds / 1_000_000_000_000_000
}

/// A throttle of submissions: the first passes and shuts the gate, which a task of the actor's
/// opens again after 1 s on the suspending clock; what is submitted meanwhile is dropped.
public actor Throttle {
  /// What passed, in order.
  public private(set) var log = ""
  private var isOpen = true

  public init() {}

  public func submit(_ value: String) {
    guard isOpen else { return }
    log += value
    isOpen = false
    Task {
      try? await Task.sleep(for: .seconds(1), clock: .suspending)
      self.reopen()
    }
  }

  private func reopen() { isOpen = true }
}
