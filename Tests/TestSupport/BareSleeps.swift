// Shared by the Swift Testing and XCTest targets: app-shaped code that sleeps with the standard
// library's own clocks — no clock injected anywhere — as most async Swift code is written.

/// A cache whose entries expire after a time to live: each insertion starts a task, from inside
/// the actor, that sleeps for the TTL and then removes the entry (unless it was replaced).
public actor ExpiringCache {
  private var entries: [String: (value: String, generation: Int)] = [:]
  private var generation = 0
  private let ttl: Duration

  public init(ttl: Duration) {
    self.ttl = ttl
  }

  public func insert(_ value: String, for key: String) {
    generation += 1
    let inserted = generation
    entries[key] = (value, inserted)
    Task {
      try await Task.sleep(for: ttl)
      expire(key, inserted: inserted)
    }
  }

  public func value(for key: String) -> String? {
    entries[key]?.value
  }

  /// Waits in the actor, then answers: a sleep inside a default actor's own method.
  public func slowValue(for key: String, after delay: Duration) async throws -> String? {
    try await Task.sleep(for: delay)
    return entries[key]?.value
  }

  private func expire(_ key: String, inserted: Int) {
    if entries[key]?.generation == inserted { entries[key] = nil }
  }
}

/// Reads a value every `interval` on `ContinuousClock`, from a task the stream's builder starts,
/// until the stream is cancelled.
public func poll(every interval: Duration, _ read: @escaping @Sendable () -> Int) -> AsyncStream<
  Int
> {
  AsyncStream { continuation in
    let task = Task {
      let clock = ContinuousClock()
      while !Task.isCancelled {
        continuation.yield(read())
        do { try await clock.sleep(for: interval) } catch { break }
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
  }
}

/// Runs `operation` up to `attempts` times, sleeping between attempts with exponential backoff
/// (`initialBackoff`, then twice as long each time) on `Task.sleep(nanoseconds:)`.
public func withRetries<Result: Sendable>(
  attempts: Int, initialBackoff: Duration, _ operation: () async throws -> Result
) async throws -> Result {
  var backoff = initialBackoff
  var attempt = 1
  while true {
    do {
      return try await operation()
    } catch {
      guard attempt < attempts else { throw error }
      let (seconds, attoseconds) = backoff.components
      try await Task.sleep(
        nanoseconds: UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000))
      backoff *= 2
      attempt += 1
    }
  }
}
