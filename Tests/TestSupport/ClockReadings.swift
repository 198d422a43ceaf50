import Dispatch
public import Foundation

// Shared by the Swift Testing and XCTest targets: app-shaped code that reads time itself — a
// deadline, an elapsed time, a timestamp, a Dispatch timer — with no clock injected anywhere.

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
