// snippet: ExampleApp.swift
public import Foundation
public import Observation

// The example app of the article "Testing async/await": app code as apps write it — real sleeps,
// real clocks, a model on the main actor — shared by this package's Swift Testing and XCTest
// targets (hence `public`). The article's listings use it as it is.

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

/// A search screen's model, as an app writes it: typing sets `query`, whose `didSet` starts a
/// search that waits 300 ms of quiet on the injected clock (a debounce), cancelling the search a
/// previous keystroke started; the API itself takes time on the same clock.
@MainActor @Observable public final class SearchViewModel {
  public var query = "" {
    didSet { search() }
  }
  public private(set) var results: [String] = []
  public private(set) var searchCount = 0
  @ObservationIgnored private var searchTask: Task<Void, Never>?
  @ObservationIgnored private let clock: any Clock<Duration>
  @ObservationIgnored private let api: FakeSearchAPI

  public init(clock: any Clock<Duration>, api: FakeSearchAPI) {
    self.clock = clock
    self.api = api
  }

  private func search() {
    searchTask?.cancel()
    let query = query
    searchTask = Task {
      do {
        try await clock.sleep(for: .milliseconds(300))
        searchCount += 1
        results = try await api.search(query)
      } catch {}
    }
  }
}

/// An API that answers after 100 ms on the injected clock with every word of its catalogue that
/// starts with the query.
public struct FakeSearchAPI: Sendable {
  let clock: any Clock<Duration>
  var catalogue = ["swift", "swiftui", "sweet", "marbles", "macros"]

  public init(clock: any Clock<Duration>) {
    self.clock = clock
  }

  public func search(_ query: String) async throws -> [String] {
    try await clock.sleep(for: .milliseconds(100))
    return catalogue.filter { $0.hasPrefix(query) }
  }
}

/// The search screen's model with bare sleeps: typing sets `query`, whose `didSet` starts a
/// search that waits 300 ms of quiet with `Task.sleep(for:)`, cancelling the search a previous
/// keystroke started; the API answers after 100 ms of `ContinuousClock` sleep.
@MainActor @Observable public final class BareSleepSearchViewModel {
  public var query = "" {
    didSet { search() }
  }
  public private(set) var results: [String] = []
  public private(set) var searchCount = 0
  @ObservationIgnored private var searchTask: Task<Void, Never>?

  public init() {}

  private func search() {
    searchTask?.cancel()
    let query = query
    searchTask = Task {
      do {
        try await Task.sleep(for: .milliseconds(300))
        searchCount += 1
        results = try await BareSleepSearchAPI.search(query)
      } catch {}
    }
  }
}

/// An API that answers after 100 ms on `ContinuousClock` with every word of its catalogue that
/// starts with the query.
public enum BareSleepSearchAPI {
  static let catalogue = ["swift", "swiftui", "sweet", "marbles", "macros"]

  public static func search(_ query: String) async throws -> [String] {
    try await ContinuousClock().sleep(for: .milliseconds(100))
    return catalogue.filter { $0.hasPrefix(query) }
  }
}

/// A loader that starts its work with `Task.immediate`: the state is `loading` as soon as `load()`
/// returns (the task's first step runs in the caller), `loaded` 200 ms later.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
@MainActor @Observable public final class ImmediateLoader {
  public private(set) var state = "idle"
  public private(set) var loads = 0
  @ObservationIgnored private let clock: (any Clock<Duration>)?

  /// - Parameter clock: The clock to wait on, or `nil` for a bare `Task.sleep`.
  public init(clock: (any Clock<Duration>)? = nil) {
    self.clock = clock
  }

  public func load() {
    Task.immediate {
      state = "loading"
      do {
        if let clock {
          try await clock.sleep(for: .milliseconds(200))
        } else {
          try await Task.sleep(for: .milliseconds(200))
        }
        loads += 1
        state = "loaded"
      } catch {
        state = "cancelled"
      }
    }
  }
}

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
// snippet-end
