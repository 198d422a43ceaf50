import Dispatch
import Foundation
import MarbleTesting
import Marbles
import Observation
import Signals
import Synchronization
import TestSupport
import Testing

/// "Deterministic wherever the code under test runs": the natural code, no `Task.yield()`, no real
/// sleeps, no `scheduler.task`.
@Suite struct DeterminismTests {
  /// A debounce written by hand with an unstructured task in an `AsyncStream` builder, built in
  /// the test body (it passed 6 to 13 times in 20 before the test body's tasks were driven).
  @Test(arguments: 0..<20) func aStreamWhoseBuilderStartsATaskPassesEveryTime(_ run: Int) {
    let scheduler = TestScheduler()
    let input = Subject<String, Never>()
    let debounced = Self.debounce(input.values, for: .milliseconds(3), clock: scheduler.clock)
    scheduler.expect(debounced).toBe("----a----c")
    scheduler.schedule(at: 1) { input.sendNext("a") }
    scheduler.schedule(at: 5) { input.sendNext("b") }
    scheduler.schedule(at: 6) { input.sendNext("c") }
    scheduler.flush()
  }

  static func debounce(
    _ input: some AsyncSequence<String, Never> & Sendable, for quiet: Duration,
    clock: some Clock<Duration>
  ) -> AsyncStream<String> {
    AsyncStream { continuation in
      Task {
        var pending: Task<Void, Never>?
        for await value in input {
          pending?.cancel()
          pending = Task {
            guard (try? await clock.sleep(for: quiet)) != nil else { return }
            continuation.yield(value)
          }
        }
      }
    }
  }

  @Test func aModelWhoseInitStartsATaskIsDriven() {
    final class Ticker: Sendable {
      let ticks = Log()
      init(scheduler: TestScheduler) {
        let ticks = ticks
        Task {
          while (try? await scheduler.clock.sleep(for: .milliseconds(2))) != nil {
            ticks.append("\(scheduler.now)")
          }
        }
      }
    }
    let scheduler = TestScheduler()
    let ticker = Ticker(scheduler: scheduler)
    scheduler.advance(by: 7)
    #expect(ticker.ticks.all == ["2", "4", "6"])
  }

  @Test func mainActorRunInsideADrivenTaskRunsOnTheMainActorInOrder() async {
    let scheduler = TestScheduler()
    let log = Log()
    for index in 0..<3 {
      Task {
        log.append("\(index) off")
        await MainActor.run { log.append("\(index) on main") }
        try await scheduler.clock.sleep(for: .milliseconds(1))
        log.append("\(index) woke")
      }
    }
    scheduler.run()
    #expect(
      log.all == [
        "0 off", "1 off", "2 off", "0 on main", "1 on main", "2 on main", "0 woke", "1 woke",
        "2 woke",
      ])
  }

  @Test func theViewModelFromANonisolatedTest() async {
    let scheduler = TestScheduler()
    let model = await SearchViewModel(
      clock: scheduler.clock, api: FakeSearchAPI(clock: scheduler.clock))
    await MainActor.run { model.query = "sw" }
    scheduler.advance(by: .milliseconds(299))
    #expect(await model.searchCount == 0)
    scheduler.advance(by: .milliseconds(1))
    #expect(await model.searchCount == 1)
    scheduler.advance(by: .milliseconds(100))
    #expect(await model.results == ["swift", "swiftui", "sweet"])
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @MainActor @Test func observationsGiveOneValuePerTransaction() {
    let scheduler = TestScheduler()
    let counter = ObservedCounter()
    let recorder = scheduler.record(Observations { "\(counter.count)\(counter.label)" })
    scheduler.schedule(at: 2) {
      MainActor.assumeIsolated {
        // One synchronous action, two changes: one transaction, one value.
        counter.count = 1
        counter.label = "a"
      }
    }
    scheduler.schedule(at: 5) { MainActor.assumeIsolated { counter.count = 2 } }
    scheduler.flush()
    assertMarbles(recorder, "x-y--z", values: ["x": "0", "y": "1a", "z": "2a"])
  }

  @Test func awaitingAPlainTaskBeforeDrivingItDrivesIt() async throws {
    let scheduler = TestScheduler()
    let task = Task {
      try await scheduler.clock.sleep(for: .milliseconds(5))
      return "woke"
    }
    #expect(try await task.value == "woke")
    #expect(scheduler.now == 5)
  }

  @Test func awaitingASchedulerTaskBeforeRunDrivesIt() async throws {
    let scheduler = TestScheduler()
    let task = scheduler.task(name: "the fetch") { 42 }
    #expect(try await task.value == 42)
    #expect(scheduler.now == 0)
    #expect(scheduler.takeUnreportedFailures().isEmpty)
  }

  @MainActor @Test func aDrainThatCannotReachTheMainActorStopsAndSaysSo() async {
    let scheduler = TestScheduler(stallTimeout: .milliseconds(200))
    // Started by the drain itself, so that the drain — not the watchdog, which looks only where
    // nobody drains — is what finds the main actor busy.
    scheduler.schedule(at: 0) { Task { @MainActor in _ = 1 } }
    let result = Mutex<RunResult?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      result.withLock { $0 = scheduler.run() }
      done.signal()
    }
    // The test blocks the main actor while another thread drives the scheduler.
    done.wait()
    let failure = result.withLock { $0?.failure }
    #expect(failure?.kind == .mainActorUnavailable)
    #expect(failure?.message.contains("for the main actor to run driven main-actor work") == true)
    #expect(scheduler.takeUnreportedFailures().map(\.kind) == [.mainActorUnavailable])
  }

  /// The stuck-task report that follows "the main actor never came free" names the main actor.
  @MainActor @Test func aTaskStuckBehindABlockedMainActorIsReportedAsSuch() async {
    let scheduler = TestScheduler(stallTimeout: .milliseconds(200))
    // Started by the drain itself, so that the drain — not the watchdog, which looks only where
    // nobody drains — is what finds the main actor busy.
    scheduler.schedule(at: 0) {
      scheduler.task(name: "the main-actor hop") {
        await MainActor.run { _ = 1 }
      }
    }
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      scheduler.run()
      done.signal()
    }
    // The test blocks the main actor while another thread drives the scheduler.
    done.wait()
    #expect(scheduler.takeUnreportedFailures().map(\.kind) == [.mainActorUnavailable])
    withKnownIssue {
      scheduler.flush()
    } matching: { issue in
      let message = issue.comments.first?.rawValue ?? ""
      return message.hasPrefix(
        "the main-actor hop (started at tick 0) is still suspended at tick 0, waiting for the "
          + "main actor, which never came free while the scheduler drove it")
        && !message.contains("a real clock")
    }
  }

  @Test func aResumptionFromOutsideVirtualTimeIsNamedWhenItsTaskIsStuck() {
    withKnownIssue {
      let scheduler = TestScheduler()
      let first = Gate()
      let second = Gate()
      scheduler.task(name: "the waiter") {
        await first.wait()
        await second.wait()
      }
      scheduler.advance(by: 0)
      // A thread, not virtual time, resumes it. (A block the test hands to a Dispatch queue is
      // the world's own work, which would resume it inside virtual time.)
      let resumed = DispatchSemaphore(value: 0)
      Thread {
        first.open()
        resumed.signal()
      }.start()
      resumed.wait()
      scheduler.flush()
      second.open()
    } matching: { issue in
      let message = issue.comments.first?.rawValue ?? ""
      return message.contains("the waiter (started at tick 0) is still suspended")
        && message.contains(
          "a driven task was resumed from outside virtual time, by code the scheduler does not drive"
        )
    }
  }

  @Test func theDefaultStallTimeoutIsTenSeconds() {
    #expect(TestScheduler.defaultStallTimeout == .seconds(10))
    #expect(TestScheduler().stallTimeout == .seconds(10))
  }
}

/// A thread-safe list of strings.
final class Log: Sendable {
  private let storage = Mutex<[String]>([])
  func append(_ element: String) { storage.withLock { $0.append(element) } }
  var all: [String] { storage.withLock { $0 } }
}

@MainActor @Observable final class ObservedCounter {
  var count = 0
  var label = ""
}

/// A continuation to resume from anywhere, once.
final class Gate: Sendable {
  private let state = Mutex<(continuation: CheckedContinuation<Void, Never>?, isOpen: Bool)>(
    (nil, false))

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state in
        if !state.isOpen { state.continuation = continuation }
        return state.isOpen
      }
      if isOpen { continuation.resume() }
    }
  }

  func open() {
    state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.isOpen = true
      defer { state.continuation = nil }
      return state.continuation
    }?.resume()
  }
}
