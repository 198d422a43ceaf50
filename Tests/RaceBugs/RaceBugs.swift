import MarbleTesting
import Synchronization

/// Ten small, realistic bugs that pass in Marbles' usual first-in-first-out order of same-tick
/// work and fail in another: the power suite of exploring schedules. The tests
/// (`ScheduleExplorationTests`, `RaceBugsTests`) and benchmark phase k (`ExplorationBenchmark`) run
/// the same programs. Each program makes its own
/// scheduler, runs the app code on it, and returns whether the app behaved.
public enum RaceBugs {
  /// One bug: its name, the fewest departures from FIFO that make it fail, and its program.
  public struct Bug: Sendable {
    /// What goes wrong.
    public let name: String
    /// The fewest departures from FIFO that make it fail: every schedule with fewer passes.
    public let fewestDepartures: Int
    /// Runs the app code on a scheduler of its own; `true` when it behaved.
    public let program: @Sendable () async -> Bool
  }

  /// The ten bugs. The stale answer needs its fetch's continuation to go after the other's (one
  /// departure); the double spend needs each of the second withdrawal's three steps before the
  /// first one's deduction to jump the queue (three); the same-latency answers need the second
  /// wake-up first (one); the second refresh needs the late caller's wake-up before the refresh's
  /// end (one); the lost update needs the second task's read between the first task's read and
  /// write — its three yields and the read must each jump the queue, and so must its own read's hop
  /// back (five); the cache stampede needs the second screen's wake-up before the download's end
  /// (one); the lost wake-up needs the producer's four yields and its hop to the gate ahead of the
  /// waiter's check, yield and registration (seven); the task group's pages and the timeout tie
  /// need one wake-up first (one); the missed message needs the sender's two yields and its send
  /// ahead of the listener's subscription (three).
  public static let all: [Bug] = [
    Bug(name: "stale search", fewestDepartures: 1) { await staleSearchShowsTheLatest() },
    Bug(name: "double spend", fewestDepartures: 3) { await noDoubleSpend() },
    Bug(name: "same-latency answers", fewestDepartures: 1) { await sameLatencyShowsTheLatest() },
    Bug(name: "token refreshed twice", fewestDepartures: 1) { await oneRefresh() },
    Bug(name: "lost update", fewestDepartures: 5) { await lostUpdate() },
    Bug(name: "cache stampede", fewestDepartures: 1) { await oneDownload() },
    Bug(name: "lost wake-up", fewestDepartures: 7) { await noLostWakeUp() },
    Bug(name: "task group order", fewestDepartures: 1) { await resultsInOrder() },
    Bug(name: "timeout tie", fewestDepartures: 1) { await operationBeatsItsTimeout() },
    Bug(name: "missed message", fewestDepartures: 3) { await listenerHearsTheFirstMessage() },
  ]

  /// The names of the ten bugs, in order.
  public static let names = all.map(\.name)

  /// The bug named `name`.
  public static func named(_ name: String) -> Bug {
    guard let bug = all.first(where: { $0.name == name }) else {
      preconditionFailure("no race bug named \(name)")
    }
    return bug
  }

  // MARK: The programs

  /// A search that shows whichever response arrives last, without checking that it answers the
  /// latest query: two queries at one tick, the stale answer can land after the fresh one.
  @MainActor final class StaleSearch {
    var shown = ""
    func search(_ query: String) {
      Task {
        let answer = await Self.fetch(query)
        self.shown = answer
      }
    }
    nonisolated static func fetch(_ query: String) async -> String {
      await Task.yield()  // the network
      return "results for \(query)"
    }
  }

  @MainActor static func staleSearchShowsTheLatest() async -> Bool {
    let scheduler = TestScheduler()
    let search = StaleSearch()
    search.search("sw")
    search.search("swift")
    scheduler.run()
    return search.shown == "results for swift"
  }

  /// Two withdrawals from one account: each checks the balance, then takes the money after a
  /// hop; the second validates first, so in FIFO order the first is done before it checks.
  actor Account {
    var balance = 100
    func withdraw(_ amount: Int) async -> Bool {
      guard balance >= amount else { return false }
      await Self.audit()
      balance -= amount
      return true
    }
    nonisolated static func audit() async { await Task.yield() }
  }

  static func noDoubleSpend() async -> Bool {
    let scheduler = TestScheduler()
    let account = Account()
    Task { _ = await account.withdraw(80) }
    Task {
      await Task.yield()  // validates the request first
      await Task.yield()
      _ = await account.withdraw(80)
    }
    scheduler.run()
    return await account.balance >= 0
  }

  /// Two searches at one tick whose answers take the same 100 ms: the answer that wakes last is
  /// shown, and FIFO wakes the first query first.
  @MainActor static func sameLatencyShowsTheLatest() async -> Bool {
    let scheduler = TestScheduler()
    let shown = Log()
    for query in ["sw", "swift"] {
      Task {
        try await Task.sleep(for: .milliseconds(100))
        shown.append("results for \(query)")
      }
    }
    scheduler.run()
    return shown.all.last == "results for swift"
  }

  /// A token store without an in-flight refresh: a caller that comes back as a refresh ends can
  /// start a second one.
  actor TokenStore {
    private var token: String?
    private(set) var refreshes = 0
    func current() async throws -> String {
      if let token { return token }
      refreshes += 1
      try await Task.sleep(for: .milliseconds(10))  // the refresh request
      token = "token \(refreshes)"
      return token!
    }
  }

  static func oneRefresh() async -> Bool {
    let scheduler = TestScheduler()
    let store = TokenStore()
    Task { _ = try await store.current() }
    Task {
      try await Task.sleep(for: .milliseconds(10))  // a second screen asks a little later
      _ = try await store.current()
    }
    scheduler.run()
    return await store.refreshes == 1
  }

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

  /// A flag set once, from anywhere.
  public final class PassedFlag: Sendable {
    private let flag = Mutex(false)
    /// A flag not set yet.
    public init() {}
    /// Sets it.
    public func set() { flag.withLock { $0 = true } }
    /// Whether it was set.
    public var isSet: Bool { flag.withLock { $0 } }
  }

  final class Log: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ element: String) { storage.withLock { $0.append(element) } }
    var all: [String] { storage.withLock { $0 } }
  }
}
