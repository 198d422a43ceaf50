import Dispatch
public import Foundation

// Shared by the Swift Testing and XCTest targets: app-shaped code that reads time itself — a
// deadline, an elapsed time, a timestamp, a Dispatch timer — with no clock injected anywhere.

/// A value with a time to live, stamped with `Date()` when it is stored.
public final class TimestampedCache: @unchecked Sendable {
  // NB: @unchecked: every stored property is behind `lock`.
  private let lock = NSLock()
  private var entries: [String: (value: String, stored: Date)] = [:]
  private let timeToLive: TimeInterval

  public init(timeToLive: TimeInterval) {
    self.timeToLive = timeToLive
  }

  public func store(_ value: String, for key: String) {
    lock.withLock { entries[key] = (value, Date()) }
  }

  /// The value for `key` if it is younger than the time to live.
  public func value(for key: String) -> String? {
    lock.withLock {
      guard let entry = entries[key], Date().timeIntervalSince(entry.stored) < timeToLive
      else { return nil }
      return entry.value
    }
  }
}

/// Polls `isReady` every `interval` until it says yes or `timeout` has passed since the call,
/// as a "wait for the server" loop does: a deadline read once, from `ContinuousClock.now`.
///
/// - Returns: Whether `isReady` said yes before the deadline, and how many times it was asked.
public func pollUntilReady(
  every interval: Duration, timeout: Duration, isReady: @Sendable () -> Bool
) async throws -> (ready: Bool, polls: Int) {
  let deadline = ContinuousClock.now + timeout
  var polls = 0
  while ContinuousClock.now < deadline {
    polls += 1
    if isReady() { return (true, polls) }
    try await Task.sleep(for: interval)
  }
  return (false, polls)
}

/// A banner that hides itself three seconds after it is shown, with `DispatchQueue.main`.
@MainActor public final class BannerModel {
  public private(set) var message: String?
  public private(set) var shownAt: Date?

  public init() {}

  public func show(_ message: String) {
    self.message = message
    shownAt = Date.now
    DispatchQueue.main.asyncAfter(deadline: .now() + 3) { [weak self] in
      MainActor.assumeIsolated { self?.message = nil }
    }
  }
}

/// A rate limiter that lets `limit` calls through per `window`, measured on `SuspendingClock`.
public actor RateLimiter {
  private var windowStart: SuspendingClock.Instant?
  private var count = 0
  private let limit: Int
  private let window: Duration

  public init(limit: Int, per window: Duration) {
    self.limit = limit
    self.window = window
  }

  /// Whether a call may go through now.
  public func allow() -> Bool {
    let now = SuspendingClock.now
    if let start = windowStart, start.duration(to: now) < window {
      guard count < limit else { return false }
      count += 1
      return true
    }
    windowStart = now
    count = 1
    return true
  }
}
