import Clocks
import Dispatch
import Foundation
import MarbleTesting
import Observation
import Synchronization

/// Phase i: the same async scenarios driven by swift-clocks' `TestClock` (which advances time and
/// then waits for tasks to settle with `Task.megaYield()`) and by a Marbles `TestScheduler` (which
/// runs the tasks itself), with the other core kept busy: how many of 1,000 runs end with the wrong
/// state, and the time per run.
enum SideBySide {
  static let runs = Int(ProcessInfo.processInfo.environment["SIDE_BY_SIDE_RUNS"] ?? "") ?? 1_000

  /// What one run saw: the search count just before and at 300 ms after the last keystroke, and
  /// the results 100 ms later.
  struct Outcome: Equatable {
    var before: Int
    var at: Int
    var results: [String]

    static let right = Outcome(before: 0, at: 1, results: ["swift", "swiftui", "sweet"])
  }

  // MARK: The code under test

  /// A debounced search as an app writes it: each keystroke cancels the previous search and starts
  /// a `Task` that waits 300 ms of quiet on the injected clock, then asks an API that itself takes
  /// 100 ms on the same clock.
  final class Searcher: Sendable {
    private struct State {
      var task: Task<Void, Never>?
      var searchCount = 0
      var results: [String] = []
    }
    private let state = Mutex(State())
    private let clock: any Clock<Duration>

    init(clock: any Clock<Duration>) { self.clock = clock }

    func type(_ query: String) {
      let clock = clock
      let task = Task {
        guard (try? await clock.sleep(for: .milliseconds(300))) != nil else { return }
        state.withLock { $0.searchCount += 1 }
        guard let results = try? await API.search(query, clock: clock) else { return }
        state.withLock { $0.results = results }
      }
      state.withLock { state in
        state.task?.cancel()
        state.task = task
      }
    }

    var searchCount: Int { state.withLock { $0.searchCount } }
    var results: [String] { state.withLock { $0.results } }
  }

  /// The same search in a `@MainActor @Observable` view model whose `query`'s `didSet` starts it.
  @MainActor @Observable final class SearchViewModel {
    var query = "" { didSet { search() } }
    private(set) var results: [String] = []
    private(set) var searchCount = 0
    @ObservationIgnored private var task: Task<Void, Never>?
    @ObservationIgnored private let clock: any Clock<Duration>

    init(clock: any Clock<Duration>) { self.clock = clock }

    private func search() {
      task?.cancel()
      let query = query
      task = Task {
        guard (try? await clock.sleep(for: .milliseconds(300))) != nil else { return }
        searchCount += 1
        guard let results = try? await API.search(query, clock: clock) else { return }
        self.results = results
      }
    }
  }

  /// The same view model with bare sleeps, as most apps write it: `Task.sleep(for:)`, no clock
  /// injected. Only Marbles can drive it in virtual time; `TestClock` cannot reach its sleeps.
  @MainActor @Observable final class BareSleepSearchViewModel {
    var query = "" { didSet { search() } }
    private(set) var results: [String] = []
    private(set) var searchCount = 0
    @ObservationIgnored private var task: Task<Void, Never>?

    private func search() {
      task?.cancel()
      let query = query
      task = Task {
        guard (try? await Task.sleep(for: .milliseconds(300))) != nil else { return }
        searchCount += 1
        guard (try? await ContinuousClock().sleep(for: .milliseconds(100))) != nil else { return }
        self.results = ["swift", "swiftui", "sweet", "marbles"].filter { $0.hasPrefix(query) }
      }
    }
  }

  enum API {
    static func search(_ query: String, clock: any Clock<Duration>) async throws -> [String] {
      try await clock.sleep(for: .milliseconds(100))
      return ["swift", "swiftui", "sweet", "marbles"].filter { $0.hasPrefix(query) }
    }
  }

  // MARK: One run, each way

  /// The keystrokes and checks of a run, with `advance` moving time the driver's way.
  @MainActor static func search(
    type: (String) async -> Void, advance: (Duration) async -> Void,
    state: () async -> (count: Int, results: [String])
  ) async -> Outcome {
    await type("s")
    await advance(.milliseconds(100))
    await type("sw")
    await advance(.milliseconds(299))
    let before = await state().count
    await advance(.milliseconds(1))
    let at = await state().count
    await advance(.milliseconds(100))
    return Outcome(before: before, at: at, results: await state().results)
  }

  @MainActor static func searcherWithTestClock() async -> Outcome {
    let clock = TestClock()
    let searcher = Searcher(clock: clock)
    return await search(
      type: { searcher.type($0) }, advance: { await clock.advance(by: $0) },
      state: { (searcher.searchCount, searcher.results) })
  }

  /// The way Marbles needed before its scheduler drove the tasks a test starts: the keystrokes in
  /// `scheduler.task`.
  @MainActor static func searcherWithSchedulerTask() async -> Outcome {
    let scheduler = TestScheduler()
    let searcher = Searcher(clock: scheduler.clock)
    return await search(
      type: { query in scheduler.task { searcher.type(query) } },
      advance: { scheduler.advance(by: $0) },
      state: { (searcher.searchCount, searcher.results) })
  }

  /// The plain `Task { }` the searcher really creates.
  @MainActor static func searcherWithMarbles() async -> Outcome {
    let scheduler = TestScheduler()
    let searcher = Searcher(clock: scheduler.clock)
    return await search(
      type: { searcher.type($0) }, advance: { scheduler.advance(by: $0) },
      state: { (searcher.searchCount, searcher.results) })
  }

  @MainActor static func viewModelWithTestClock() async -> Outcome {
    let clock = TestClock()
    let model = SearchViewModel(clock: clock)
    return await search(
      type: { model.query = $0 }, advance: { await clock.advance(by: $0) },
      state: { (model.searchCount, model.results) })
  }

  @MainActor static func viewModelWithMarbles() async -> Outcome {
    let scheduler = TestScheduler()
    let model = SearchViewModel(clock: scheduler.clock)
    return await search(
      type: { model.query = $0 }, advance: { scheduler.advance(by: $0) },
      state: { (model.searchCount, model.results) })
  }

  /// The bare-sleep view model in virtual time: no injection.
  @MainActor static func bareSleepViewModelWithMarbles() async -> Outcome {
    let scheduler = TestScheduler()
    let model = BareSleepSearchViewModel()
    return await search(
      type: { model.query = $0 }, advance: { scheduler.advance(by: $0) },
      state: { (model.searchCount, model.results) })
  }

  /// The bare-sleep view model as a test without injection and without Marbles runs it: each
  /// `advance` is a real wait.
  @MainActor static func bareSleepViewModelInRealTime() async -> Outcome {
    let model = BareSleepSearchViewModel()
    return await search(
      type: { model.query = $0 }, advance: { try? await Task.sleep(for: $0) },
      state: { (model.searchCount, model.results) })
  }

  /// 1,000 tasks asleep for 1…1,000 ms, woken by 1,000 one-millisecond advances.
  @MainActor static func sleepersWithTestClock() async -> Int {
    let clock = TestClock()
    let woken = Count()
    for index in 1...1_000 {
      Task {
        try await clock.sleep(for: .milliseconds(index))
        woken.value.add(1, ordering: .relaxed)
      }
    }
    for _ in 1...1_000 { await clock.advance(by: .milliseconds(1)) }
    return woken.value.load(ordering: .relaxed)
  }

  @MainActor static func sleepersWithMarbles() async -> Int {
    let scheduler = TestScheduler()
    let clock = scheduler.clock
    let woken = Count()
    for index in 1...1_000 {
      Task {
        try await clock.sleep(for: .milliseconds(index))
        woken.value.add(1, ordering: .relaxed)
      }
    }
    for _ in 1...1_000 { scheduler.advance(by: .milliseconds(1)) }
    return woken.value.load(ordering: .relaxed)
  }

  final class Count: Sendable { let value = Atomic(0) }
  final class Flag: Sendable { let value = Atomic(false) }

  // MARK: Measuring

  /// Runs `scenario` `count` times; returns how many ended wrong and the mean time per run.
  @MainActor static func measure(
    _ name: String, count: Int = runs, _ scenario: @MainActor () async -> Outcome
  ) async -> (wrong: Int, seconds: Double) {
    var wrong = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count where await scenario() != .right { wrong += 1 }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(count)
    print(
      name.padding(toLength: 46, withPad: " ", startingAt: 0)
        + String(format: "%5d of %d wrong %12.4f ms/run", wrong, count, seconds * 1e3))
    return (wrong, seconds)
  }

  /// Keeps `count` threads spinning until `body` returns: the other core busy.
  @MainActor static func withBusyThreads<Result>(
    _ count: Int, _ body: @MainActor () async -> Result
  ) async -> Result {
    let stop = Flag()
    let done = DispatchGroup()
    for _ in 0..<count {
      done.enter()
      Thread.detachNewThread {
        var spin = 0
        while !stop.value.load(ordering: .relaxed) { spin &+= 1 }
        done.leave()
      }
    }
    let result = await body()
    stop.value.store(true, ordering: .relaxed)
    done.wait()
    return result
  }

  @MainActor static func run() async {
    let busy = Int(ProcessInfo.processInfo.environment["BUSY_THREADS"] ?? "") ?? 4
    print("i. side by side, \(runs) runs each, \(busy) busy threads on the cores")
    await withBusyThreads(busy) {
      let testClock = await measure("i. search, swift-clocks TestClock") {
        await searcherWithTestClock()
      }
      _ = await measure("i. search, Marbles scheduler.task") { await searcherWithSchedulerTask() }
      let marbles = await measure("i. search, Marbles plain Task") { await searcherWithMarbles() }
      print(
        Harness.comparison(
          "i. search: TestClock time / Marbles time", ratio: testClock.seconds / marbles.seconds))
      let modelClock = await measure("i. @MainActor view model, TestClock") {
        await viewModelWithTestClock()
      }
      let model = await measure("i. @MainActor view model, Marbles") {
        await viewModelWithMarbles()
      }
      print(
        Harness.comparison(
          "i. view model: TestClock time / Marbles time", ratio: modelClock.seconds / model.seconds)
      )
      let bare = await measure("i. bare-sleep view model, Marbles (no clock)") {
        await bareSleepViewModelWithMarbles()
      }
      let realRuns = Int(ProcessInfo.processInfo.environment["REAL_TIME_RUNS"] ?? "") ?? 20
      let real = await measure("i. bare-sleep view model, real time", count: realRuns) {
        await bareSleepViewModelInRealTime()
      }
      print(
        Harness.comparison(
          "i. bare sleeps: TestClock (injected) / Marbles", ratio: modelClock.seconds / bare.seconds
        ))
      print(
        Harness.comparison(
          "i. bare sleeps: real time / Marbles", ratio: real.seconds / bare.seconds))
      for (name, sleepers) in [
        ("i. 1,000 sleepers, TestClock", sleepersWithTestClock),
        ("i. 1,000 sleepers, Marbles", sleepersWithMarbles),
      ] as [(String, @MainActor () async -> Int)] {
        let start = DispatchTime.now().uptimeNanoseconds
        let woken = await sleepers()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        print(
          name.padding(toLength: 46, withPad: " ", startingAt: 0)
            + String(format: "%5d of 1000 woken %10.4f s", woken, seconds))
      }
    }
  }
}
