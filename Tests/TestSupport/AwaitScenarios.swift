public import MarbleTesting

/// Tests that only await app code — no `advance`, no `run` — each returning what happened and
/// when (`"value@ms"`, in the world's virtual time), so that Swift Testing and XCTest check the
/// same transcripts (`AwaitsDriveTests`, `AwaitsDriveXCTests`).
public enum AwaitScenarios {
  /// The milliseconds of virtual time since `scheduler`'s tick 0 (its tick is 1 ms).
  static func at(_ scheduler: TestScheduler) -> String {
    "@\(scheduler.now)"
  }

  /// A timeout helper whose work finishes first.
  public static func timeoutWorkWins(_ scheduler: TestScheduler) async throws -> [String] {
    let value = try await withTimeout(.seconds(5)) {
      try await Task.sleep(for: .seconds(1))
      return "done"
    }
    return [value + at(scheduler)]
  }

  /// A timeout helper whose time runs out first: the work is cancelled, nothing is left.
  public static func timeoutTimeoutWins(_ scheduler: TestScheduler) async -> [String] {
    do {
      _ = try await withTimeout(.seconds(1)) {
        try await Task.sleep(for: .seconds(10))
        return "late"
      }
      return ["no timeout" + at(scheduler)]
    } catch {
      return ["\(type(of: error))" + at(scheduler), "pending: \(scheduler.hasScheduledWork)"]
    }
  }

  /// Two `async let`s of different lengths.
  public static func asyncLets(_ scheduler: TestScheduler) async -> [String] {
    async let first = Self.value("a", after: .seconds(1))
    async let second = Self.value("b", after: .seconds(3))
    let both = await [first, second]
    return [both.joined(separator: ",") + at(scheduler)]
  }

  /// A task group whose children sleep 3 s, 1 s and 2 s: their values in the order they finish.
  public static func taskGroup(_ scheduler: TestScheduler) async -> [String] {
    await withTaskGroup(of: String.self) { group in
      for seconds in [3, 1, 2] {
        group.addTask { await Self.value("\(seconds)", after: .seconds(seconds)) }
      }
      var finished: [String] = []
      for await value in group { finished.append(value + at(scheduler)) }
      return finished
    }
  }

  /// An app's `Task`, awaited for its value.
  public static func appTaskValue(_ scheduler: TestScheduler) async throws -> [String] {
    let task = Task {
      try await Task.sleep(for: .seconds(2))
      return 42
    }
    return ["\(try await task.value)" + at(scheduler)]
  }

  /// `for await` over a stream that a sleeping producer task feeds.
  public static func forAwait(_ scheduler: TestScheduler) async -> [String] {
    var seen: [String] = []
    for await tick in ticks(3, every: .seconds(1)) { seen.append("\(tick)" + at(scheduler)) }
    return seen + ["end" + at(scheduler)]
  }

  /// A `@MainActor @Observable` model whose `load()` starts child work.
  @MainActor public static func mainActorModel(_ scheduler: TestScheduler) async -> [String] {
    let model = FeedModel()
    await model.load()
    return [model.items.joined(separator: ",") + at(scheduler), "loading: \(model.isLoading)"]
  }

  /// A retry client with 1, 2 and 4 s of backoff, each call taking 100 ms, the fourth answering.
  public static func retries(_ scheduler: TestScheduler) async throws -> [String] {
    let start = ContinuousClock.now
    let service = FlakyService(failures: 3, latency: .milliseconds(100))
    let answer = try await fetchWithBackoff(service, attempts: 4)
    let calls = await service.calls.map { "call@\(milliseconds(from: start, to: $0))" }
    return calls + [answer + at(scheduler)]
  }

  /// A `Task {}` that an actor's method starts, which the test calls, then sleeps past.
  public static func taskStartedInAnActor(_ scheduler: TestScheduler) async throws -> [String] {
    let start = ContinuousClock.now
    let warmer = Warmer()
    await warmer.warm()
    try await Task.sleep(for: .seconds(3))
    let log = await warmer.log.map { "\($0.0)@\(milliseconds(from: start, to: $0.1))" }
    return log + ["test" + at(scheduler)]
  }

  /// `await Task { 42 }.value`.
  public static func aTaskOf42(_ scheduler: TestScheduler) async -> [String] {
    ["\(await Task { 42 }.value)" + at(scheduler)]
  }

  /// Explicit driving mixed with awaits: `advance` stops short of a task's sleep, an await goes
  /// past it, `run` finishes what is left.
  public static func explicitAndAwaits(_ scheduler: TestScheduler) async throws -> [String] {
    var log: [String] = []
    let woke = Task {
      try await Task.sleep(for: .seconds(1))
      return "woke"
    }
    scheduler.advance(by: .milliseconds(500))
    log.append("advanced" + at(scheduler))
    try await Task.sleep(for: .milliseconds(600))
    log.append("slept" + at(scheduler))
    log.append(try await woke.value + at(scheduler))
    scheduler.schedule(after: .seconds(2)) {}
    scheduler.run()
    log.append("ran" + at(scheduler))
    return log
  }

  private static func value(_ value: String, after latency: Duration) async -> String {
    try? await Task.sleep(for: latency)
    return value
  }
}

extension AwaitScenarios {
  /// What each scenario must return.
  public static let expected: [String: [String]] = [
    "timeoutWorkWins": ["done@1000"],
    "timeoutTimeoutWins": ["TimeoutError@1000", "pending: false"],
    "asyncLets": ["a,b@3000"],
    "taskGroup": ["1@1000", "2@2000", "3@3000"],
    "appTaskValue": ["42@2000"],
    "forAwait": ["1@1000", "2@2000", "3@3000", "end@3000"],
    "mainActorModel": ["news,weather@2000", "loading: false"],
    "retries": ["call@0", "call@1100", "call@3200", "call@7300", "payload@7400"],
    "taskStartedInAnActor": ["warm@2000", "test@3000"],
    "aTaskOf42": ["42@0"],
    "explicitAndAwaits": ["advanced@500", "slept@1100", "woke@1100", "ran@3100"],
  ]
}
