import Dispatch
import Signals
import Testing

/// Real-time tests: each waits with a generous timeout and never asserts an upper bound on time.
@Suite("QueueScheduler")
struct QueueSchedulerTests {
  private static func deadline() -> DispatchTime { .now() + .seconds(30) }
  /// How long the disposal test waits between scheduling and disposing: longer than the delay,
  /// as a descheduled thread may.
  private static let betweenScheduleAndDispose = DispatchTimeInterval.milliseconds(100)

  @Test("schedule runs the action on the scheduler's queue")
  func runsOnItsQueue() {
    let key = DispatchSpecificKey<String>()
    let queue = DispatchQueue(label: "QueueSchedulerTests.runsOnItsQueue")
    queue.setSpecific(key: key, value: "mine")
    let scheduler = QueueScheduler(queue: queue)
    let sameQueue = scheduler.queue === queue
    #expect(sameQueue)
    let seen = Shared<String?>(nil)
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule {
      seen.value = DispatchQueue.getSpecific(key: key)
      done.signal()
    }
    #expect(done.wait(timeout: Self.deadline()) == .success)
    #expect(seen.value == "mine")
  }

  @Test("Actions scheduled on a serial queue run in order")
  func runsInOrder() {
    let scheduler = QueueScheduler()
    let order = Shared<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    for value in 0..<100 { scheduler.schedule { order.append(value) } }
    scheduler.schedule { done.signal() }
    #expect(done.wait(timeout: Self.deadline()) == .success)
    #expect(order.value == Array(0..<100))
  }

  @Test("A disposed action never runs")
  func disposedActionNeverRuns() {
    let queue = DispatchQueue(label: "QueueSchedulerTests.disposed")
    let scheduler = QueueScheduler(queue: queue)
    let gate = DispatchSemaphore(value: 0)
    let runs = Counter()
    // Block the queue so the action cannot run before it is disposed.
    queue.async { gate.wait() }
    let disposable = scheduler.schedule { runs.increment() }
    disposable.dispose()
    #expect(disposable.isDisposed)
    gate.signal()
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule { done.signal() }
    #expect(done.wait(timeout: Self.deadline()) == .success)
    #expect(runs.value == 0)
  }

  /// The queue is held while the action is scheduled and disposed: a test thread descheduled for
  /// longer than the delay between the two (a loaded CI machine: the action ran once in a full
  /// parallel run) cannot let the action's block run first.
  @Test("A disposed delayed action never runs")
  func disposedDelayedActionNeverRuns() {
    let queue = DispatchQueue(label: "disposedDelayedActionNeverRuns")
    let scheduler = QueueScheduler(queue: queue)
    let runs = Counter()
    queue.suspend()
    let disposable = scheduler.schedule(after: .milliseconds(50)) { runs.increment() }
    _ = DispatchSemaphore(value: 0).wait(timeout: .now() + Self.betweenScheduleAndDispose)
    disposable.dispose()
    queue.resume()
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule(after: .milliseconds(200)) { done.signal() }
    #expect(done.wait(timeout: Self.deadline()) == .success)
    #expect(runs.value == 0)
  }

  @Test("schedule(after:) waits at least the delay")
  func afterWaitsAtLeastTheDelay() throws {
    let scheduler = QueueScheduler()
    let clock = ContinuousClock()
    let start = clock.now
    let ranAt = Shared<ContinuousClock.Instant?>(nil)
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule(after: .milliseconds(100)) {
      ranAt.value = clock.now
      done.signal()
    }
    #expect(done.wait(timeout: Self.deadline()) == .success)
    let end = try #require(ranAt.value)
    #expect(end - start >= .milliseconds(100))
  }

  @Test("A repeating action runs several times and stops after dispose")
  func repeatingRunsAndStops() {
    let scheduler = QueueScheduler()
    let runs = Counter()
    let third = DispatchSemaphore(value: 0)
    let disposable = scheduler.schedule(after: .milliseconds(1), interval: .milliseconds(10)) {
      if runs.increment() == 3 { third.signal() }
    }
    #expect(third.wait(timeout: Self.deadline()) == .success)
    disposable.dispose()
    // Let any run already under way finish, then check that no further runs happen.
    let settle = DispatchSemaphore(value: 0)
    scheduler.schedule { settle.signal() }
    #expect(settle.wait(timeout: Self.deadline()) == .success)
    let afterDispose = runs.value
    #expect(afterDispose >= 3)
    let later = DispatchSemaphore(value: 0)
    scheduler.schedule(after: .milliseconds(100)) { later.signal() }
    #expect(later.wait(timeout: Self.deadline()) == .success)
    #expect(runs.value == afterDispose)
  }

  @Test("A negative or zero delay runs as soon as possible")
  func nonPositiveDelay() {
    let scheduler = QueueScheduler()
    let done = DispatchSemaphore(value: 0)
    scheduler.schedule(after: .milliseconds(-5)) { done.signal() }
    #expect(done.wait(timeout: Self.deadline()) == .success)
    scheduler.schedule(after: .zero) { done.signal() }
    #expect(done.wait(timeout: Self.deadline()) == .success)
  }
}
