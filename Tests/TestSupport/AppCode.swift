public import Observation

// App code as apps write it — real sleeps, real clocks, no injection — which the world tests
// await directly (Tests/MarblesTests/World, Tests/MarblesXCTests/AwaitsDriveXCTests.swift).

/// What ``withTimeout(_:_:)`` throws when the time runs out first.
public struct TimeoutError: Error, Equatable, Sendable {
  public init() {}
}

/// Runs `work`, or throws ``TimeoutError`` once `duration` has passed: the work raced against a
/// sleep in a task group, the loser cancelled.
public func withTimeout<Value: Sendable>(
  _ duration: Duration, _ work: @escaping @Sendable () async throws -> Value
) async throws -> Value {
  try await withThrowingTaskGroup(of: Value.self) { group in
    group.addTask { try await work() }
    group.addTask {
      try await Task.sleep(for: duration)
      throw TimeoutError()
    }
    defer { group.cancelAll() }
    return try await group.next()!
  }
}

/// A service that fails its first `failures` calls, each call taking `latency`.
public actor FlakyService {
  private var failuresLeft: Int
  private let latency: Duration
  /// When each call was made, as `ContinuousClock` read it.
  public private(set) var calls: [ContinuousClock.Instant] = []

  public init(failures: Int, latency: Duration) {
    failuresLeft = failures
    self.latency = latency
  }

  public struct Unavailable: Error {}

  public func fetch() async throws -> String {
    calls.append(ContinuousClock.now)
    try await Task.sleep(for: latency)
    guard failuresLeft == 0 else {
      failuresLeft -= 1
      throw Unavailable()
    }
    return "payload"
  }
}

/// Fetches from `service`, retrying after 1 s, 2 s, 4 s… while attempts are left.
public func fetchWithBackoff(_ service: FlakyService, attempts: Int) async throws -> String {
  var delay = Duration.seconds(1)
  for attempt in 1... {
    do {
      return try await service.fetch()
    } catch  where attempt < attempts {
      try await Task.sleep(for: delay)
      delay *= 2
    }
  }
  fatalError("unreachable")
}

/// A screen's model: `load()` fetches two sources side by side (`async let`), each a sleep.
@MainActor @Observable public final class FeedModel {
  public private(set) var items: [String] = []
  public private(set) var isLoading = false

  public init() {}

  public func load() async {
    isLoading = true
    async let news = Self.fetch("news", after: .seconds(1))
    async let weather = Self.fetch("weather", after: .seconds(2))
    items = await [news, weather]
    isLoading = false
  }

  nonisolated static func fetch(_ name: String, after latency: Duration) async -> String {
    try? await Task.sleep(for: latency)
    return name
  }
}

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
