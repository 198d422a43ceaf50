import MarbleTesting
import Marbles
import TestSupport
import Testing

/// Tests that only await app code, as it is written — no `advance`, no `run` — with one line
/// that opens the test's world: time moves when everything waits, to the exact millisecond.
/// (Each failed on 2026-11-26's `main`: the awaits stalled 10 s and were cancelled.)
@Suite struct AwaitsDriveTests {
  typealias Scenario = @Sendable (TestScheduler) async throws -> [String]

  func check(_ name: String, _ scenario: Scenario) async throws {
    let scheduler = TestScheduler()
    #expect(try await scenario(scheduler) == AwaitScenarios.expected[name])
  }

  @Test func aTimeoutHelperWhoseWorkWins() async throws {
    try await check("timeoutWorkWins", AwaitScenarios.timeoutWorkWins)
  }

  @Test func aTimeoutHelperWhoseTimeoutWins() async throws {
    try await check("timeoutTimeoutWins", AwaitScenarios.timeoutTimeoutWins)
  }

  @Test func asyncLets() async throws {
    try await check("asyncLets", AwaitScenarios.asyncLets)
  }

  @Test func aTaskGroupOfChildrenSleepingDifferentDurations() async throws {
    try await check("taskGroup", AwaitScenarios.taskGroup)
  }

  @Test func anAppTasksValue() async throws {
    try await check("appTaskValue", AwaitScenarios.appTaskValue)
  }

  @Test func forAwaitOverAStreamFedByASleepingProducer() async throws {
    try await check("forAwait", AwaitScenarios.forAwait)
  }

  @Test func aMainActorModelsLoadThatStartsChildWork() async throws {
    try await check("mainActorModel", AwaitScenarios.mainActorModel)
  }

  @MainActor @Test func aMainActorModelsLoadFromAMainActorTest() async throws {
    let scheduler = TestScheduler()
    #expect(
      await AwaitScenarios.mainActorModel(scheduler) == AwaitScenarios.expected["mainActorModel"])
  }

  @Test func aRetryClientWithBackoff() async throws {
    try await check("retries", AwaitScenarios.retries)
  }

  @Test func aTaskStartedInAnActorsMethod() async throws {
    try await check("taskStartedInAnActor", AwaitScenarios.taskStartedInAnActor)
  }

  @Test func aTaskOf42() async throws {
    try await check("aTaskOf42", AwaitScenarios.aTaskOf42)
  }

  @Test func explicitDrivingMixedWithAwaits() async throws {
    try await check("explicitAndAwaits", AwaitScenarios.explicitAndAwaits)
  }

  @Test func stepByStepMixedWithAwaits() async throws {
    let scheduler = TestScheduler()
    let recorder = scheduler.record(ticks(3, every: .seconds(1)))
    #expect(recorder.nextValue() == 1)
    #expect(scheduler.now == 1000)
    try await Task.sleep(for: .milliseconds(1500))
    #expect(scheduler.now == 2500)
    #expect(recorder.nextValue() == 2)
    #expect(recorder.nextValue() == 3)
    #expect(scheduler.now == 3000)
    recorder.expectCompletion()
  }
}

/// The same, with the trait instead of the line: every test of the suite in a world of its own.
@Suite(.virtualTime) struct AwaitsDriveInATraitTests {
  @Test(arguments: AwaitScenarios.expected.keys.sorted())
  func eachScenario(_ name: String) async throws {
    let scheduler = try #require(TestScheduler.current)
    let scenario: @Sendable (TestScheduler) async throws -> [String] =
      switch name {
      case "timeoutWorkWins": AwaitScenarios.timeoutWorkWins
      case "timeoutTimeoutWins": AwaitScenarios.timeoutTimeoutWins
      case "asyncLets": AwaitScenarios.asyncLets
      case "taskGroup": AwaitScenarios.taskGroup
      case "appTaskValue": AwaitScenarios.appTaskValue
      case "forAwait": AwaitScenarios.forAwait
      case "mainActorModel": AwaitScenarios.mainActorModel
      case "retries": AwaitScenarios.retries
      case "taskStartedInAnActor": AwaitScenarios.taskStartedInAnActor
      case "aTaskOf42": AwaitScenarios.aTaskOf42
      default: AwaitScenarios.explicitAndAwaits
      }
    #expect(try await scenario(scheduler) == AwaitScenarios.expected[name])
  }

  @Test func theBodyIsUnchangedAndReadsTheWorldsClock() async throws {
    let start = ContinuousClock.now
    try await Task.sleep(for: .seconds(90))
    #expect(milliseconds(from: start, to: .now) == 90_000)
    #expect(TestScheduler.current?.now == 90_000)
  }
}

/// `withVirtualTime`, async and sync.
@Suite struct WithVirtualTimeTests {
  @Test func theAsyncFormReturnsTheBodysValueInVirtualTime() async throws {
    let value = try await withVirtualTime { scheduler in
      try await Task.sleep(for: .seconds(3))
      return scheduler.now
    }
    #expect(value == 3000)
  }

  @Test func theSyncFormDrivesWhatTheBodyDrives() {
    let log = withVirtualTime { scheduler in
      let task = Task { try await Task.sleep(for: .seconds(1)) }
      scheduler.advance(by: .seconds(1))
      return [scheduler.now, task.isCancelled ? -1 : 1]
    }
    #expect(log == [1000, 1])
  }

  /// The body runs on the caller's actor: a `@MainActor` test's body uses main-actor state with
  /// no hop. (On 2026-11-27's `main` this did not compile: the body was sent off the main actor.)
  @MainActor @Test func aMainActorTestsBodyStaysOnTheMainActor() async throws {
    let model = Counter()
    let seen = try await withVirtualTime { scheduler in
      model.count += 1
      try await Task.sleep(for: .seconds(2))
      MainActor.assertIsolated()
      model.count += 1
      return [model.count, Int(scheduler.now)]
    }
    #expect(seen == [2, 2000])
  }

  @MainActor final class Counter {
    var count = 0
  }

  @Test func aTickOfItsOwn() async throws {
    let ticks = try await withVirtualTime(tick: .milliseconds(100)) { scheduler in
      try await Task.sleep(for: .seconds(1))
      return scheduler.now
    }
    #expect(ticks == 10)
  }
}
