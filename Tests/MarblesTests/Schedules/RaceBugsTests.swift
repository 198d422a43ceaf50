@_spi(Exploration) import MarbleTesting
import Synchronization
import Testing

/// More small, realistic bugs that pass in FIFO order and fail in another order of same-tick
/// work, each found by exploring schedules within a stated budget, from several seeds.
@Suite struct RaceBugsTests {
  static func run(_ schedule: ScheduleRun, _ body: () async -> Bool) async -> Bool {
    await ScheduleRun.$current.withValue(schedule) { await body() }
  }

  // MARK: The bugs

  actor Store {
    private(set) var value = 0
    func set(_ value: Int) { self.value = value }
  }

  /// A lost update: read, then write after a pause; the second increment arrives a few steps
  /// later at the same tick.
  static func lostUpdate() async -> Bool {
    let scheduler = TestScheduler()
    let store = Store()
    Task {
      let value = await store.value
      await Task.yield()  // formats the new value
      await store.set(value + 1)
    }
    Task {
      for _ in 0..<3 { await Task.yield() }  // arrives at the same tick, a few steps later
      let value = await store.value
      await Task.yield()
      await store.set(value + 1)
    }
    scheduler.run()
    return await store.value == 2
  }

  actor ImageCache {
    private var images: [String: String] = [:]
    private(set) var downloads = 0
    func image(_ name: String) async throws -> String {
      if let image = images[name] { return image }
      downloads += 1
      try await Task.sleep(for: .milliseconds(10))  // the download
      images[name] = "image of \(name)"
      return images[name]!
    }
  }

  /// A cache stampede: no map of downloads in flight, and a second screen that asks just as the
  /// first download ends.
  static func oneDownload() async -> Bool {
    let scheduler = TestScheduler()
    let cache = ImageCache()
    Task { _ = try await cache.image("avatar") }
    Task {
      try await Task.sleep(for: .milliseconds(10))
      _ = try await cache.image("avatar")
    }
    scheduler.run()
    return await cache.downloads == 1
  }

  /// A gate whose waiter checks, then registers after a hop: an opening in between is lost.
  actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    var open: Bool { isOpen }
    func wait() async { await withCheckedContinuation { waiters.append($0) } }
    func openIt() {
      isOpen = true
      for waiter in waiters { waiter.resume() }
      waiters = []
    }
  }

  static func noLostWakeUp() async -> Bool {
    let scheduler = TestScheduler()
    let gate = Gate()
    let log = PassedFlag()
    Task {
      if await !gate.open {
        await Task.yield()  // logs that it waits
        await gate.wait()
      }
      log.set()
    }
    Task {
      for _ in 0..<4 { await Task.yield() }  // the producer gets ready at the same tick
      await gate.openIt()
    }
    scheduler.run()
    let done = log.isSet
    if !done { Task { await gate.openIt() } }  // let the waiter go
    return done
  }

  /// Results of a task group taken as they come, read as if they came in the order submitted.
  static func resultsInOrder() async -> Bool {
    let scheduler = TestScheduler()
    let results = Box<[Int]>([])
    Task {
      let collected = await withTaskGroup(of: Int.self) { group in
        for page in 1...3 {
          group.addTask {
            try? await Task.sleep(for: .milliseconds(5))  // every page takes as long
            return page
          }
        }
        var pages: [Int] = []
        for await page in group { pages.append(page) }
        return pages
      }
      results.set(collected)
    }
    scheduler.run()
    return results.value == [1, 2, 3]
  }

  struct TimedOut: Error {}

  /// An operation that takes exactly its timeout: which one wins is a same-tick tie.
  static func operationBeatsItsTimeout() async -> Bool {
    let scheduler = TestScheduler()
    let outcome = Box<String>("")
    Task {
      let value = try? await withThrowingTaskGroup(of: String.self) { group in
        group.addTask {
          try await Task.sleep(for: .milliseconds(100))
          return "loaded"
        }
        group.addTask {
          try await Task.sleep(for: .milliseconds(100))
          throw TimedOut()
        }
        let first = try await group.next()!
        group.cancelAll()
        return first
      }
      outcome.set(value ?? "timed out")
    }
    scheduler.run()
    return outcome.value == "loaded"
  }

  /// A listener that subscribes to a stream after a hop: what is sent at that tick before it
  /// listens is lost.
  static func listenerHearsTheFirstMessage() async -> Bool {
    let scheduler = TestScheduler()
    let heard = Box<[String]>([])
    let hub = Hub()
    Task {
      await Task.yield()  // sets itself up first
      for await message in await hub.listen() { heard.set(heard.value + [message]) }
    }
    Task {
      await Task.yield()
      await Task.yield()
      await hub.send("hello")
      await hub.finish()
    }
    scheduler.run()
    return heard.value == ["hello"]
  }

  actor Hub {
    private var continuations: [AsyncStream<String>.Continuation] = []
    func listen() -> AsyncStream<String> {
      let (stream, continuation) = AsyncStream<String>.makeStream()
      continuations.append(continuation)
      return stream
    }
    func send(_ message: String) {
      for continuation in continuations { continuation.yield(message) }
    }
    func finish() { for continuation in continuations { continuation.finish() } }
  }

  final class Box<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    func set(_ value: Value) { storage.withLock { $0 = value } }
    var value: Value { storage.withLock { $0 } }
  }

  final class PassedFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
  }

  static func bug(_ name: String) -> () async -> Bool {
    switch name {
    case "lost update": { await Self.lostUpdate() }
    case "cache stampede": { await Self.oneDownload() }
    case "lost wake-up": { await Self.noLostWakeUp() }
    case "task group order": { await Self.resultsInOrder() }
    case "timeout tie": { await Self.operationBeatsItsTimeout() }
    default: { await Self.listenerHearsTheFirstMessage() }
    }
  }

  static let names = [
    "lost update", "cache stampede", "lost wake-up", "task group order", "timeout tie",
    "missed message",
  ]

  @Test(arguments: names)
  func passesInFIFOOrder(_ name: String) async {
    #expect(await Self.run(ScheduleRun(FIFOStrategy()), Self.bug(name)))
  }

  /// The fewest departures from FIFO that make each bug fail: the search for them runs every
  /// schedule with fewer, level by level, and all pass (checked below). The lost update needs the
  /// second task's read between the first task's read and write: its three yields and the read
  /// must each jump the queue, and so must its own read's hop back (five). The lost wake-up needs
  /// the producer's four yields and its hop to the gate ahead of the waiter's check, yield and
  /// registration (seven).
  static let fewest: [String: Int] = [
    "lost update": 5, "cache stampede": 1, "lost wake-up": 7, "task group order": 1,
    "timeout tie": 1, "missed message": 3,
  ]

  @Test(arguments: names, [1, 42, 0xBEEF] as [UInt64])
  func isFoundWithin100SchedulesShrunkAndReplayed(_ name: String, _ seed: UInt64) async {
    let body = Self.bug(name)
    let outcome = await ScheduleExplorer.explore(count: 100, seed: seed) { schedule in
      await Self.run(schedule, body)
    }
    guard let failure = outcome.failure else {
      Issue.record("\(name): not found in 100 schedules from seed \(seed)")
      return
    }
    #expect(failure.token.departures.count == Self.fewest[name], "\(failure.token)")
    let replay = await ScheduleExplorer.explore(count: 1, seed: 0, replay: failure.token) {
      schedule in await Self.run(schedule, body)
    }
    #expect(replay.failure != nil)
  }

  @Test(arguments: names)
  func needsAsManyDeparturesAsItSays(_ name: String) async {
    let body = Self.bug(name)
    let search = await ScheduleExplorer.fewestDepartures { schedule in
      await Self.run(schedule, body)
    }
    // Every schedule with fewer departures ran and passed; one with that many fails.
    #expect(search.passingBelow == Self.fewest[name])
    #expect(search.failing?.departures.count == Self.fewest[name])
    // Within a limit below that, none fails.
    let limit = Self.fewest[name]! - 1
    let withinLimit = await ScheduleExplorer.fewestDepartures(upTo: limit) { schedule in
      await Self.run(schedule, body)
    }
    #expect(withinLimit.failing == nil)
    #expect(withinLimit.passingBelow == limit + 1)
  }
}
