import MarbleTesting
import Marbles
import TestSupport
import Testing

/// Durably blocked: time moves only when every task and job of the world waits on something only
/// the world's time or work can end. A job queued on an actor, a hop to or from the main actor, a
/// job in transit between executors: runnable, never a reason to move time.
@Suite struct DurablyBlockedTests {
  /// Five submissions at tick 0, through hops from the main actor to the throttle's actor and
  /// back: none of them may let the gate's 1 s go by.
  @MainActor @Test func aMainActorTestThatMakesItsSchedulerFirstSubmitsToAnActor() async throws {
    let scheduler = TestScheduler()
    let start = ContinuousClock.now
    let throttle = Throttle()
    for value in ["a", "b", "c", "d", "e"] { await throttle.submit(value) }
    #expect(scheduler.now == 0)
    try await Task.sleep(for: .seconds(2))
    await throttle.submit("f")
    #expect(await throttle.log == "af")
    #expect(ContinuousClock.now - start == .seconds(2), "the test's readings are virtual")
    #expect(scheduler.now == 2000)
    // The throttle's gate after "f" reopens at 3 s: the world closes with nothing left waiting.
    try await Task.sleep(for: .seconds(1))
  }

  @MainActor @Test(.virtualTime) func aMainActorTestInAWorldSubmitsToAnActor() async throws {
    let throttle = Throttle()
    for value in ["a", "b", "c", "d", "e"] { await throttle.submit(value) }
    try await Task.sleep(for: .seconds(2))
    await throttle.submit("f")
    #expect(await throttle.log == "af")
    // The throttle's gate after "f" reopens at 3 s: the world closes with nothing left waiting.
    try await Task.sleep(for: .seconds(1))
  }

  /// An actor that races its own work — a task that inherits the actor — against a 1 s timeout.
  actor Loader {
    func slowPart(_ key: String) async -> String {
      try? await Task.sleep(for: .milliseconds(500))
      return "loaded \(key)"
    }

    func load(_ key: String) async throws -> String {
      let inner = Task { await self.slowPart(key) }
      return try await withTimeout(.seconds(1)) { await inner.value }
    }
  }

  @Test(.virtualTime, arguments: 0..<20) func actorIsolatedWorkRacingATimeoutWins(_ run: Int)
    async throws
  {
    let start = ContinuousClock.now
    #expect(try await Loader().load("k\(run)") == "loaded k\(run)")
    #expect(ContinuousClock.now - start == .milliseconds(500))
  }
}
