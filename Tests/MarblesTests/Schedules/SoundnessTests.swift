import MarbleTesting
import Synchronization
import TestSupport
import Testing

/// Exploring schedules is sound: correct concurrent code passes every schedule — 1,000 each —
/// because no schedule runs an order the runtime could not produce.
@Suite struct SoundnessTests {
  static func passesEverySchedule(
    _ count: Int = 1_000, seed: UInt64, _ body: () async -> Bool
  ) async -> ScheduleExplorer.Outcome {
    await ScheduleExplorer.explore(count: count, seed: seed) { schedule in
      await ScheduleRun.$current.withValue(schedule) { await body() }
    }
  }

  /// The image cache done right: downloads in flight are shared.
  actor ImageCache {
    private var images: [String: String] = [:]
    private var inFlight: [String: Task<String, any Error>] = [:]
    private(set) var downloads = 0
    func image(_ name: String) async throws -> String {
      if let image = images[name] { return image }
      if let task = inFlight[name] { return try await task.value }
      downloads += 1
      let task = Task {
        try await Task.sleep(for: .milliseconds(10))
        return "image of \(name)"
      }
      inFlight[name] = task
      let image = try await task.value
      images[name] = image
      inFlight[name] = nil
      return image
    }
  }

  @Test func aCacheWithAnInFlightMapDownloadsOnce() async {
    let outcome = await Self.passesEverySchedule(seed: 1) {
      let scheduler = TestScheduler()
      let cache = ImageCache()
      for delay in [0, 0, 5, 10, 10] {
        Task {
          try await Task.sleep(for: .milliseconds(delay))
          _ = try await cache.image("avatar")
        }
      }
      scheduler.run()
      return await cache.downloads == 1
    }
    #expect(outcome.failure == nil)
    #expect(outcome.schedulesRun == 1_000)
    #expect(outcome.choicePoints > 5)
  }

  /// Tasks that sleep the same durations wake at the same ticks: in whatever order a schedule
  /// wakes them, each wakes every time. (A wake-up the choice point ran ahead of a job was freed
  /// twice, so that the next two sleeps shared one place in the queue and one was lost: the tasks
  /// of a poll loop slept forever in some schedules.)
  @Test func sleepersWakingAtTheSameTicksAllWakeInEverySchedule() async {
    let outcome = await Self.passesEverySchedule(seed: 3) {
      let scheduler = TestScheduler()
      let wakes = Mutex(0)
      for _ in 0..<3 {
        scheduler.task {
          for _ in 0..<5 {
            try await Task.sleep(for: .milliseconds(100))
            wakes.withLock { $0 += 1 }
          }
        }
      }
      scheduler.run()
      return wakes.withLock { $0 } == 15 && scheduler.now == 500
    }
    #expect(outcome.failure == nil)
    #expect(outcome.schedulesRun == 1_000)
  }

  /// The article's view model, driven as the article drives it.
  @MainActor static func theArticlesViewModel() -> Bool {
    let scheduler = TestScheduler()
    let model = SearchViewModel(clock: scheduler.clock, api: FakeSearchAPI(clock: scheduler.clock))
    model.query = "s"
    scheduler.advance(by: .milliseconds(100))
    model.query = "sw"
    scheduler.advance(by: .milliseconds(299))
    guard model.searchCount == 0 else { return false }
    scheduler.advance(by: .milliseconds(1))
    guard model.searchCount == 1 else { return false }
    scheduler.advance(by: .milliseconds(100))
    return model.results == ["swift", "swiftui", "sweet"] && scheduler.now == 500
  }

  @Test func theAsyncArticlesViewModelPassesEverySchedule() async {
    let outcome = await Self.passesEverySchedule(seed: 2) { await Self.theArticlesViewModel() }
    #expect(outcome.failure == nil)
  }

  /// Main-actor work with a `Task.immediate` prefix: the first steps run in the caller, before
  /// anything else, in every schedule.
  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @MainActor static func immediatePrefix() -> Bool {
    let scheduler = TestScheduler()
    var log: [String] = []
    Task { log.append("plain task") }
    Task.immediate {
      log.append("immediate, first step")
      await Task.yield()
      log.append("immediate, later")
    }
    log.append("caller goes on")
    scheduler.run()
    return Array(log.prefix(2)) == ["immediate, first step", "caller goes on"] && log.count == 4
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @Test func aTaskImmediatesFirstStepsComeFirstInEverySchedule() async {
    let outcome = await Self.passesEverySchedule(seed: 3) { await Self.immediatePrefix() }
    #expect(outcome.failure == nil)
    #expect(outcome.choicePoints > 0)
  }

  /// A token store done right: the refresh in flight is shared.
  actor TokenStore {
    private var token: String?
    private var refreshing: Task<String, any Error>?
    private(set) var refreshes = 0
    func current() async throws -> String {
      if let token { return token }
      if let refreshing { return try await refreshing.value }
      refreshes += 1
      let task = Task {
        try await Task.sleep(for: .milliseconds(10))
        return "token"
      }
      refreshing = task
      let fresh = try await task.value
      token = fresh
      refreshing = nil
      return fresh
    }
  }

  @Test func aTokenStoreThatSharesItsRefreshRefreshesOnce() async {
    let outcome = await Self.passesEverySchedule(seed: 4) {
      let scheduler = TestScheduler()
      let store = TokenStore()
      for delay in [0, 10, 10] {
        Task {
          try await Task.sleep(for: .milliseconds(delay))
          _ = try await store.current()
        }
      }
      scheduler.run()
      return await store.refreshes == 1
    }
    #expect(outcome.failure == nil)
  }
}
