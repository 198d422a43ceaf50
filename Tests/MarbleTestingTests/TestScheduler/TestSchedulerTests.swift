import Dispatch
@_spi(Internals) import Signals
import Synchronization
import Testing

@testable import MarbleTesting

@Suite struct TestSchedulerTests {
  @Test func startsAtTickZeroWithNothingToRun() {
    let scheduler = TestScheduler()
    #expect(scheduler.now == 0)
    #expect(scheduler.isIdle)
    #expect(scheduler.tick == .milliseconds(1))
  }

  @Test func actionsRunInTimeThenSchedulingOrder() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    scheduler.schedule(at: 5) { log.stamp("a", scheduler) }
    scheduler.schedule(at: 3) { log.stamp("b", scheduler) }
    scheduler.schedule(at: 5) { log.stamp("c", scheduler) }
    scheduler.schedule(at: 3) { log.stamp("d", scheduler) }
    let result = scheduler.run()
    #expect(log.all == ["b@3", "d@3", "a@5", "c@5"])
    #expect(result == RunResult(actionsRun: 4, now: 5, failure: nil))
  }

  @Test func workScheduledForTheCurrentTickRunsInTheSameAdvance() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    scheduler.schedule(at: 2) {
      log.stamp("outer", scheduler)
      scheduler.schedule { log.stamp("inner", scheduler) }
      scheduler.schedule(at: 2) { log.stamp("inner-at", scheduler) }
      scheduler.schedule(at: 3) { log.stamp("later", scheduler) }
    }
    scheduler.advance(to: 2)
    #expect(log.all == ["outer@2", "inner@2", "inner-at@2"])
    #expect(scheduler.now == 2)
    scheduler.advance(by: 1)
    #expect(log.all.last == "later@3")
  }

  @Test func anActionScheduledInThePastRunsNow() {
    let scheduler = TestScheduler()
    scheduler.advance(to: 10)
    let log = Log<String>()
    scheduler.schedule(at: 3) { log.stamp("late", scheduler) }
    scheduler.advance(by: 0)
    #expect(log.all == ["late@10"])
  }

  @Test func theClockNeverMovesBackwards() {
    let scheduler = TestScheduler()
    scheduler.advance(to: 10)
    let result = scheduler.advance(to: 4)
    #expect(scheduler.now == 10)
    #expect(result.isComplete)
    scheduler.advance(by: -3)
    #expect(scheduler.now == 10)
  }

  @Test func advanceMovesTheClockEvenWithNothingToRun() {
    let scheduler = TestScheduler()
    scheduler.advance(by: 7)
    #expect(scheduler.now == 7)
    scheduler.advance(to: 12)
    #expect(scheduler.now == 12)
  }

  @Test func runLeavesTheClockAtTheLastAction() {
    let scheduler = TestScheduler()
    scheduler.schedule(at: 42) {}
    scheduler.run()
    #expect(scheduler.now == 42)
  }

  @Test func durationsBecomeTicksRoundingUp() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    #expect(scheduler.ticks(.seconds(1.5)) == 15)
    #expect(scheduler.ticks(.milliseconds(101)) == 2)
    #expect(scheduler.ticks(.nanoseconds(1)) == 1)
    #expect(scheduler.ticks(.zero) == 0)
    #expect(scheduler.ticks(.seconds(-1)) == 0)
    // Below a nanosecond, and past what 64-bit nanoseconds hold: still rounded up, never early.
    #expect(scheduler.ticks(Duration(secondsComponent: 0, attosecondsComponent: 1)) == 1)
    #expect(scheduler.ticks(Duration(secondsComponent: 1, attosecondsComponent: 1)) == 11)
    #expect(scheduler.ticks(.seconds(20_000_000_000)) == 200_000_000_000)
    #expect(scheduler.ticks(.seconds(Int64.max)) == Int.max)
    let fine = TestScheduler(tick: Duration(secondsComponent: 0, attosecondsComponent: 1_500_000))
    #expect(fine.ticks(.nanoseconds(3)) == 2000, "a tick with a fraction of a nanosecond")

    let log = Log<String>()
    scheduler.schedule(after: .milliseconds(150)) { log.stamp("a", scheduler) }
    scheduler.advance(by: 1)
    #expect(log.all.isEmpty, "150 ms must not run at tick 1 (100 ms): nothing runs early")
    scheduler.advance(by: 1)
    #expect(log.all == ["a@2"])
  }

  @Test func aCancelledActionNeverRuns() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    let action = scheduler.schedule(at: 1) { log.stamp("cancelled", scheduler) }
    scheduler.schedule(at: 1) { log.stamp("kept", scheduler) }
    action.dispose()
    #expect(action.isDisposed)
    scheduler.run()
    #expect(log.all == ["kept@1"])
  }

  @Test func cancellingReleasesTheActionAtOnceAndReportsItDisposed() {
    final class Payload: Sendable {}
    let scheduler = TestScheduler()
    weak var released: Payload?
    let disposable: any Disposable
    do {
      let payload = Payload()
      released = payload
      disposable = scheduler.schedule(at: 50) { _ = payload }
    }
    #expect(released != nil)
    #expect(!disposable.isDisposed)
    disposable.dispose()
    #expect(released == nil)
    #expect(disposable.isDisposed)
    #expect(!scheduler.hasScheduledWork)
    #expect(scheduler.run() == RunResult(actionsRun: 0, now: 0))
  }

  /// An operator's pending action often holds its own disposable (through the operator's state):
  /// a cycle that must end with the scheduler, not outlive it.
  @Test func pendingWorkHoldingItsOwnHandleIsReleasedWithTheScheduler() {
    final class Holder: @unchecked Sendable {
      // NB: set once, before the scheduler can run anything.
      var handle: (any Disposable)?
    }
    weak var released: Holder?
    // The test's first scheduler is its world's clock until the world closes; this one is made
    // above it, and goes with its last reference.
    withVirtualTime { _ in
      do {
        let scheduler = TestScheduler()
        let holder = Holder()
        released = holder
        holder.handle = scheduler.schedule(at: 10) { holder.handle?.dispose() }
        scheduler.advance(to: 5)
      }
      #expect(released == nil)
    }
  }

  @Test func aOneShotActionThatRanReportsItselfDisposed() {
    let scheduler = TestScheduler()
    let first = scheduler.schedule(at: 1) {}
    let second = scheduler.schedule(at: 2) {}
    scheduler.advance(to: 1)
    #expect(first.isDisposed)
    #expect(!second.isDisposed)
    // Its slot is reused by the next action; disposing the old handle must not cancel that one.
    let log = Log<Int>()
    scheduler.schedule(at: 3) { log.append(3) }
    first.dispose()
    scheduler.run()
    #expect(log.all == [3])
  }

  /// Freed slots are reused, many at a time: stale handles neither cancel nor report the actions
  /// that took their slots over.
  @Test func staleHandlesLeaveTheActionsThatReuseTheirSlotsAlone() {
    let scheduler = TestScheduler()
    let log = Log<Int>()
    let first = (0..<100).map { index in scheduler.schedule(at: index) { log.append(index) } }
    for (index, handle) in first.enumerated() where index.isMultiple(of: 2) { handle.dispose() }
    scheduler.run()
    #expect(log.all == Array(stride(from: 1, to: 100, by: 2)))
    let second = (100..<250).map { index in scheduler.schedule(at: index) { log.append(index) } }
    for handle in first { handle.dispose() }
    #expect(first.allSatisfy { $0.isDisposed })
    #expect(!second.contains { $0.isDisposed })
    scheduler.run()
    #expect(log.all == Array(stride(from: 1, to: 100, by: 2)) + Array(100..<250))
  }

  /// A one-shot action is finished once it starts: disposing its handle from inside it changes
  /// nothing, and neither do actions it schedules, which may take over its slot.
  @Test func aOneShotActionIsFinishedOnceItStarts() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    let holder = Log<any Disposable>()
    holder.append(
      scheduler.schedule(at: 1) {
        let handle = holder.all[0]
        log.append("running, disposed: \(handle.isDisposed)")
        scheduler.schedule { log.stamp("follow-up", scheduler) }
        handle.dispose()
      })
    scheduler.run()
    #expect(log.all == ["running, disposed: true", "follow-up@1"])
  }

  /// A repeating action keeps its slot while it runs: disposing it from inside stops the repeats.
  @Test func aRepeatingActionDisposedFromInsideItselfStops() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    let holder = Log<any Disposable>()
    holder.append(
      scheduler.schedule(after: .milliseconds(1), interval: .milliseconds(2)) {
        let handle = holder.all[0]
        log.append("tick \(scheduler.now), disposed: \(handle.isDisposed)")
        if scheduler.now == 3 { handle.dispose() }
      })
    scheduler.run()
    #expect(log.all == ["tick 1, disposed: false", "tick 3, disposed: false"])
    #expect(holder.all[0].isDisposed)
  }

  @Test func anActionCancelledByAnEarlierOneAtTheSameTickNeverRuns() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    let holder = Log<any Disposable>()
    scheduler.schedule(at: 1) { holder.all.first?.dispose() }
    holder.append(scheduler.schedule(at: 1) { log.stamp("victim", scheduler) })
    scheduler.run()
    #expect(log.all.isEmpty)
  }

  @Test func repeatingActionsRescheduleFromTheirDueTime() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    let timer = scheduler.schedule(after: .milliseconds(2), interval: .milliseconds(3)) {
      log.stamp("tick", scheduler)
    }
    scheduler.advance(to: 11)
    #expect(log.all == ["tick@2", "tick@5", "tick@8", "tick@11"])
    timer.dispose()
    scheduler.advance(to: 30)
    #expect(log.all.count == 4)
  }

  @Test func aRepeatingActionCanStopItselfFromInside() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    let holder = Log<any Disposable>()
    holder.append(
      scheduler.schedule(after: .zero, interval: .milliseconds(1)) {
        log.stamp("tick", scheduler)
        if log.all.count == 3 { holder.all.first?.dispose() }
      })
    let result = scheduler.run()
    #expect(log.all == ["tick@0", "tick@1", "tick@2"])
    #expect(result.isComplete)
  }

  @Test func runStopsAnEndlessTimerAtTheStepLimitAndNamesIt() {
    let scheduler = TestScheduler(stepLimit: 1_000)
    let count = Log<Int>()
    scheduler.schedule(after: .milliseconds(3), interval: .milliseconds(2)) { count.append(1) }
    scheduler.schedule(at: 1) {}

    let result = scheduler.run()

    #expect(result.actionsRun == 1_000)
    #expect(count.all.count == 999)
    let failure = try! #require(result.failure)
    #expect(failure.kind == .stepLimitExceeded)
    #expect(failure.message.contains("stopped after 1000 steps (its stepLimit"))
    #expect(failure.message.contains("a repeating action (every 2 ticks, first due at tick 3"))
    #expect(scheduler.failures == [failure])
    // The clock stays where it stopped, and nothing is lost: the timer is still there.
    #expect(scheduler.now == 3 + 2 * 998 + 2)
    #expect(!scheduler.isIdle)
    scheduler.advance(by: 2)
    #expect(count.all.count == 1_001)
  }

  @Test func runStopsASelfReschedulingChainAndSaysSo() {
    let scheduler = TestScheduler(stepLimit: 500)
    @Sendable func again() { scheduler.schedule(after: .milliseconds(1), again) }
    scheduler.schedule(at: 4, again)
    let result = scheduler.run()
    let failure = try! #require(result.failure)
    #expect(failure.message.contains("an action that keeps scheduling more work"))
    #expect(failure.message.contains("the first due at tick 4"))
  }

  @Test func advanceFromInsideAnActionIsRefusedWithAClearFailure() {
    let scheduler = TestScheduler()
    let inner = Log<RunResult>()
    scheduler.schedule(at: 1) { inner.append(scheduler.advance(by: 5)) }
    let outer = scheduler.run()
    #expect(outer.isComplete)
    let refused = try! #require(inner.all.first)
    #expect(refused.failure?.kind == .concurrentUse)
    #expect(refused.actionsRun == 0)
    #expect(scheduler.failures.map(\.kind) == [.concurrentUse])
    #expect(scheduler.now == 1)
  }

  @Test func runningFromTwoThreadsAtOnceIsRefused() {
    let scheduler = TestScheduler()
    let insideAction = DispatchSemaphore(value: 0)
    let otherThreadDone = DispatchSemaphore(value: 0)
    let other = Log<RunResult>()
    scheduler.schedule(at: 1) {
      insideAction.signal()
      otherThreadDone.wait()
    }
    DispatchQueue.global().async {
      insideAction.wait()
      other.append(scheduler.run())
      otherThreadDone.signal()
    }
    #expect(scheduler.run().isComplete)
    #expect(other.all.first?.failure?.kind == .concurrentUse)
  }

  /// A stall timeout of the longest duration means "for ever". On 2026-11-28's `main` making
  /// such a scheduler trapped: of three conversions of a duration to nanoseconds, one saturated.
  /// A task that ended is let go: a scheduler that starts a task every tick keeps only the ones
  /// still running. (On 2026-11-28's `main` it kept every task it ever owned — 1.5 KB each, 1.5 GB
  /// of memory after a million ticks — with its record and its number.)
  @Test func tasksThatEndedAreLetGo() {
    let scheduler = TestScheduler()
    let handle = scheduler.schedule(after: .milliseconds(1), interval: .milliseconds(1)) {
      scheduler.task {}
    }
    scheduler.advance(by: .milliseconds(10_000))
    handle.dispose()
    #expect(Registry.shared.withLock { $0.tasks(of: scheduler.core.driver) }.count == 0)
    #expect(scheduler.core.tasks.count < 200)
    #expect(scheduler.core.tasks.unfinished.isEmpty)
  }

  /// The default step limit carries a budget of real time: past a million steps, a run stops
  /// once it has run 5 s (ten million steps of an endless timer took 21 s in a debug build on
  /// 2026-11-28's machine, and a user waited that long to learn of it). Decided here with a start
  /// of 0 — the process began more than 5 s after the machine did — so the test reads no clock
  /// of its own.
  @Test func theDefaultStepLimitCarriesATimeBudget() {
    let core = TestScheduler().core
    let pastAMillion = 245 * 4_096  // the budget is looked at every 4,096 steps
    #expect(core.stepLimitStop(after: pastAMillion, since: 0) == .time)
    #expect(core.stepLimitStop(after: pastAMillion - 4_096, since: 0) == nil)
    #expect(core.stepLimitStop(after: pastAMillion, since: SchedulerCore.realNanoseconds()) == nil)
    #expect(core.stepLimitStop(after: TestScheduler.defaultStepLimit, since: .max) == .steps)
    #expect(
      core.stepLimitWords(.time)
        == "its time budget: the default stepLimit allows 10000000 steps, or as many as "
        + "5.0 seconds of real time allow once 1000000 have run")
  }

  /// An explicit step limit is a number of steps only.
  @Test func anExplicitStepLimitHasNoTimeBudget() {
    let core = TestScheduler(stepLimit: 20_000_000).core
    #expect(core.stepLimitStop(after: 245 * 4_096, since: 0) == nil)
    #expect(core.stepLimitStop(after: 20_000_000, since: 0) == .steps)
    #expect(core.stepLimitWords(.steps) == "its stepLimit of 20000000")
  }

  @Test func aStallTimeoutOfTheLongestDurationIsForEver() async throws {
    let scheduler = TestScheduler(stallTimeout: .seconds(Int64.max))
    let clock = scheduler.clock
    let woke = scheduler.task {
      try await clock.sleep(for: .seconds(1))
      return scheduler.now
    }
    scheduler.run()
    #expect(try await woke.value == 1_000)
    let awaited = await withVirtualTime(stallTimeout: .seconds(Int64.max)) { scheduler in
      try? await Task.sleep(for: .seconds(2))
      return scheduler.now
    }
    #expect(awaited == 2_000)
  }

  @Test func schedulersAreIndependentUnderParallelUse() {
    let results = Log<[String]>()
    DispatchQueue.concurrentPerform(iterations: 16) { _ in
      let scheduler = TestScheduler()
      let log = Log<String>()
      for time in stride(from: 100, through: 0, by: -1) {
        scheduler.schedule(at: time) { log.stamp("t", scheduler) }
      }
      scheduler.run()
      results.append(log.all)
    }
    let expected = (0...100).map { "t@\($0)" }
    #expect(results.all.count == 16)
    #expect(results.all.allSatisfy { $0 == expected })
  }

  @Test func theHeapKeepsOrderOverManyRandomActions() {
    let scheduler = TestScheduler()
    let log = Log<Int>()
    var generator = SplitMix(seed: 7)
    var expected: [(time: Int, order: Int)] = []
    for order in 0..<5_000 {
      let time = Int(generator.next() % 300)
      expected.append((time, order))
      scheduler.schedule(at: time) { log.append(order) }
    }
    scheduler.run()
    let sorted = expected.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map(\.order)
    #expect(log.all == sorted)
  }

  /// In-order work takes the queue's sorted run, the rest its heap; actions that schedule more
  /// work mix the two while draining. Every action must still run once, at its due time, in
  /// `(time, scheduling order)` order.
  @Test func orderHoldsWhenInOrderAndOutOfOrderWorkInterleave() {
    let scheduler = TestScheduler()
    let ran = Log<(due: Int, at: Int, order: Int)>()
    let counter = Mutex(0)
    let generator = Mutex(SplitMix(seed: 11))
    @Sendable func random(_ bound: UInt64) -> Int {
      Int(generator.withLock { $0.next() } % bound)
    }
    @Sendable func schedule(at due: Int, depth: Int) {
      let order = counter.withLock { count in
        defer { count += 1 }
        return count
      }
      scheduler.schedule(at: due) {
        ran.append((due, scheduler.now, order))
        guard depth < 3 else { return }
        for _ in 0..<random(3) {
          // Now, soon, or (clamped to now) in the past.
          schedule(at: scheduler.now + random(6) - 1, depth: depth + 1)
        }
      }
    }
    for block in 0..<40 {
      // Alternate ascending stretches with scrambled ones.
      for index in 0..<50 {
        schedule(at: block % 2 == 0 ? block * 10 + index / 5 : random(400), depth: 0)
      }
    }
    scheduler.run()
    let runs = ran.all
    #expect(runs.count == counter.withLock { $0 })
    #expect(runs.count > 2_000)
    #expect(Set(runs.map(\.order)).count == runs.count)
    #expect(runs.allSatisfy { $0.at >= $0.due })
    let keys = runs.map { ($0.at, $0.order) }
    #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
  }

  @Test func timeOperatorsFromSignalsRunOnVirtualTime() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let signal = Signal<String, Never> { subscriber in
      scheduler.schedule(after: .seconds(1.5)) { subscriber.sendNext("A") }
    }
    let subscriber = scheduler.record(signal, subscribeAt: 20)
    scheduler.run()
    #expect(subscriber.events == [.next(35, "A")])
  }

  @Test func advanceByADurationRoundsUpToWholeTicks() {
    let scheduler = TestScheduler(tick: .milliseconds(10))
    let ran = Log<String>()
    scheduler.schedule(at: 3) { ran.stamp("at 3", scheduler) }
    let first = scheduler.advance(by: .milliseconds(25))
    #expect(first == RunResult(actionsRun: 1, now: 3))
    #expect(ran.all == ["at 3@3"])
    let second = scheduler.advance(by: .seconds(1))
    #expect(second == RunResult(actionsRun: 0, now: 103))
    let none = scheduler.advance(by: .zero)
    #expect(none.now == 103)
    let backwards = scheduler.advance(by: .milliseconds(-5))
    #expect(backwards.now == 103)
  }

}

/// A small deterministic random number generator for reproducible tests.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
