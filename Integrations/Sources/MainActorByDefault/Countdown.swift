public import Observation

// A module built as new app targets are: `.defaultIsolation(MainActor.self)` and
// `NonisolatedNonsendingByDefault`. Nothing here is annotated; every type is on the main actor,
// and nonisolated async functions run on their caller's actor. No clock is injected.

/// Counts down once a second from `start` with `Task.sleep(for:)`.
@Observable public final class Countdown {
  public private(set) var remaining: Int
  public private(set) var isFinished = false
  private var task: Task<Void, Never>?

  public init(from start: Int) {
    remaining = start
  }

  public func start() {
    task = Task {
      while remaining > 0 {
        do { try await Task.sleep(for: .seconds(1)) } catch { return }
        remaining -= 1
      }
      isFinished = true
    }
  }

  public func stop() {
    task?.cancel()
  }
}

/// Waits until a deadline it reads itself on the main actor, then answers: the standard
/// library's sleep is not on the main actor, so the read and the sleep are two steps.
public func answer(after delay: Duration) async throws -> String {
  try await Task.sleep(until: .now + delay, clock: .continuous)
  return "answered"
}

/// A nonisolated function, which runs on its caller's actor here, that sleeps on
/// `SuspendingClock`.
nonisolated public func nap(_ duration: Duration) async throws {
  try await SuspendingClock().sleep(for: duration)
}
