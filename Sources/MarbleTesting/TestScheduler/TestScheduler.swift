@_spi(Internals) public import Signals

/// A scheduler that runs on virtual time, so tests of time-based code run instantly and the same
/// way every time.
///
/// Virtual time is an `Int` count of ticks; a tick is ``tick`` long (1 ms by default) and one marble
/// frame is one tick. Nothing runs until you move the clock:
///
/// ```swift
/// let scheduler = TestScheduler()
/// let subject = Subject<String, Never>()
/// let subscriber = scheduler.record(subject)
/// scheduler.schedule(after: .milliseconds(5)) { subject.sendNext("fired") }
/// scheduler.advance(by: 4)   // subscribed at tick 0; nothing sent yet
/// scheduler.advance(by: 1)   // subscriber.events == [.next(5, "fired")]
/// ```
///
/// Rules:
/// - Actions run in `(time, order scheduled)` order. Work scheduled during an action for the current
///   tick runs in the same `advance`.
/// - The clock never moves backwards: an action scheduled in the past runs at ``now``.
/// - A `Duration` becomes ticks rounding up, so nothing runs early.
/// - A repeating action is rescheduled from its due time, not from when it ran.
/// - The queue is a binary heap, O(log n) per action, with an O(1) fast path for work scheduled in
///   time order (most of it: hot signals, same-tick follow-ups).
/// - No lock is held while an action runs, so actions may schedule, subscribe and send freely.
/// - ``run()`` stops after ``stepLimit`` actions instead of hanging on an endless timer; the result
///   and ``failures`` say which action kept rescheduling.
/// - Using the scheduler from two threads at once (or calling `advance` from inside an action) is
///   refused with a ``TestSchedulerFailure`` rather than corrupting the queue.
///
/// There are no globals: make one scheduler per test, and tests run in parallel safely.
public final class TestScheduler: Scheduler {
  /// The default for ``stepLimit``: ten million actions per `run()` or `advance` call.
  public static let defaultStepLimit = 10_000_000

  /// The length of one tick (and one marble frame).
  public let tick: Duration
  /// How many actions one `run()` or `advance` call may run before it gives up.
  public let stepLimit: Int

  struct State {
    var now = 0
    var nextSequence = 0
    var queue = ActionHeap()
    var isRunning = false
    /// The action running now, whose follow-up work is one generation later.
    var running: (generation: Int, chainStart: Int)?
    var failures: [TestSchedulerFailure] = []
    /// How many of `failures` an assertion library has already reported.
    var reportedFailures = 0
    /// Checks an assertion library registered to run at its next `flush()`.
    var flushChecks: [@Sendable () -> Void] = []
  }

  private let state = Locked(State())

  deinit {
    // Pending closures may hold their own handles, which hold `state`: release them so that such
    // cycles end with the scheduler.
    let bodies = state.withLock { $0.queue.removeAll() }
    _ = bodies
  }
  private let tickAttoseconds: Int128

  /// Creates a scheduler whose clock reads tick 0.
  ///
  /// - Parameters:
  ///   - tick: The virtual length of one tick (one marble frame); positive.
  ///   - stepLimit: How many actions one `run()` or `advance` call may run.
  /// - Precondition: `tick > .zero` and `stepLimit > 0`.
  public init(tick: Duration = .milliseconds(1), stepLimit: Int = TestScheduler.defaultStepLimit) {
    precondition(tick > .zero, "A TestScheduler's tick must be positive (got \(tick)).")
    precondition(stepLimit > 0, "A TestScheduler's stepLimit must be positive (got \(stepLimit)).")
    self.tick = tick
    self.stepLimit = stepLimit
    tickAttoseconds = Self.attoseconds(tick)
  }

  /// The current virtual time, in ticks.
  public var now: Int {
    state.withLock { $0.now }
  }

  /// Whether no action is waiting to run (cancelled actions still count until their time comes).
  public var isIdle: Bool {
    state.withLock { $0.queue.isEmpty }
  }

  /// Whether any action that has not been cancelled is waiting to run.
  ///
  /// The check for "disposing cancelled all pending work": after a disposal, an operator that
  /// cleaned up leaves nothing here, though its cancelled actions stay queued (and are skipped)
  /// until their time. O(n) in the queue's length.
  public var hasScheduledWork: Bool {
    state.withLock { state in state.queue.containsLiveAction }
  }

  /// How many actions are waiting, cancelled ones included until their time comes.
  public var pendingActionCount: Int {
    state.withLock { $0.queue.count }
  }

  /// Every failure so far: step limits hit and concurrent use refused.
  public var failures: [TestSchedulerFailure] {
    state.withLock { $0.failures }
  }

  /// The failures not yet taken by an earlier call, marking them taken.
  ///
  /// For assertion libraries: the `Marbles` assertions call this so that a step limit hit or a
  /// refused concurrent call is reported as a test failure exactly once, by the next assertion.
  ///
  /// - Returns: The failures since the previous call.
  public func takeUnreportedFailures() -> [TestSchedulerFailure] {
    state.withLock { state in
      defer { state.reportedFailures = state.failures.count }
      return Array(state.failures[state.reportedFailures...])
    }
  }

  /// Registers a check for the assertion library's next `flush()` (RxJS-style `expect(…).toBe(…)`).
  ///
  /// - Parameter check: Runs after the scheduler has run, on the flushing thread.
  package func addFlushCheck(_ check: @escaping @Sendable () -> Void) {
    state.withLock { $0.flushChecks.append(check) }
  }

  /// The registered flush checks, in registration order, removing them.
  package func takeFlushChecks() -> [@Sendable () -> Void] {
    state.withLock { state in
      defer { state.flushChecks = [] }
      return state.flushChecks
    }
  }

  /// `duration` in whole ticks, rounding up; zero or negative durations are 0 ticks.
  ///
  /// - Parameter duration: The duration to convert.
  /// - Returns: The number of ticks.
  public func ticks(_ duration: Duration) -> Int {
    let attoseconds = Self.attoseconds(duration)
    guard attoseconds > 0 else { return 0 }
    let ticks = (attoseconds + tickAttoseconds - 1) / tickAttoseconds
    return ticks > Int128(Int.max) ? Int.max : Int(ticks)
  }

  private static func attoseconds(_ duration: Duration) -> Int128 {
    let (seconds, attoseconds) = duration.components
    return Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
  }

  // MARK: Scheduling

  /// Schedules `action` at absolute tick `time` (or at ``now`` if `time` is in the past).
  ///
  /// - Parameters:
  ///   - time: The tick to run at.
  ///   - action: The work.
  /// - Returns: A disposable that cancels the action.
  @discardableResult
  public func schedule(at time: Int, _ action: @escaping @Sendable () -> Void) -> any Disposable {
    enqueue(at: time, interval: nil, action)
  }

  /// Schedules `action` at the current tick; it runs at the next `advance` or `run()`.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    enqueue(at: nil, interval: nil, action)
  }

  /// Schedules `action` once `delay` (rounded up to whole ticks) has passed.
  @discardableResult
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    enqueue(after: ticks(delay), interval: nil, action)
  }

  /// Schedules a repeating action. An interval shorter than one tick counts as one tick.
  @discardableResult
  public func schedule(
    after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    enqueue(after: ticks(delay), interval: max(1, ticks(interval)), action)
  }

  private func enqueue(after delay: Int, interval: Int?, _ body: @escaping @Sendable () -> Void)
    -> ScheduledActionHandle
  {
    enqueue(at: nil, delay: delay, interval: interval, body)
  }

  private func enqueue(
    at time: Int?, delay: Int = 0, interval: Int?, _ body: @escaping @Sendable () -> Void
  ) -> ScheduledActionHandle {
    let (slot, id) = state.withLock { state -> (Int, Int) in
      let due = max(state.now, time ?? state.now.clampedAdding(delay))
      let id = state.nextSequence
      state.nextSequence += 1
      let slot = state.queue.store(
        .init(
          id: id, body: body, interval: interval, chainStart: state.running?.chainStart ?? due,
          generation: state.running.map { $0.generation + 1 } ?? 0))
      state.queue.push(time: due, sequence: id, slot: slot)
      return (slot, id)
    }
    return ScheduledActionHandle(state: state, slot: slot, id: id)
  }

  // MARK: Running

  /// Moves the clock forward by `ticks`, running every action due by then.
  ///
  /// - Parameter ticks: How far to move; `0` runs what is due now.
  /// - Returns: What ran, and whether the call stopped early.
  @discardableResult
  public func advance(by ticks: Int) -> RunResult {
    let target = state.withLock { $0.now.clampedAdding(max(0, ticks)) }
    return drain(through: target)
  }

  /// Moves the clock to tick `time`, running every action due by then. The clock never moves
  /// backwards: an earlier `time` only runs what is due now.
  ///
  /// - Parameter time: The tick to move to.
  /// - Returns: What ran, and whether the call stopped early.
  @discardableResult
  public func advance(to time: Int) -> RunResult {
    drain(through: time)
  }

  /// Runs every action, moving the clock to each one's time, until the queue is empty or the step
  /// limit is reached (an endless timer). The clock stays at the last action's time.
  ///
  /// - Returns: What ran, and — if it stopped at the step limit — which action kept rescheduling.
  @discardableResult
  public func run() -> RunResult {
    drain(through: nil)
  }

  private func drain(through limit: Int?) -> RunResult {
    let refusal = state.withLock { state -> TestSchedulerFailure? in
      guard state.isRunning else {
        state.isRunning = true
        return nil
      }
      let failure = TestSchedulerFailure(
        kind: .concurrentUse,
        message: "TestScheduler was asked to run actions while it was already running them — from "
          + "another thread, or from inside one of its own actions. Drive a test scheduler from one "
          + "thread, outside its actions.")
      state.failures.append(failure)
      return failure
    }
    if let refusal { return RunResult(actionsRun: 0, now: now, failure: refusal) }

    var actionsRun = 0
    var isAtStepLimit = false
    while true {
      let next = state.withLock { state -> (key: ActionHeap.Key, body: @Sendable () -> Void)? in
        while let time = state.queue.firstTime, limit.map({ time <= $0 }) ?? true,
          let first = state.queue.popFirst()
        {
          // A cancelled action is dropped without moving the clock: it never happened.
          guard !state.queue.slots[first.slot].isCancelled else {
            state.queue.free(first.slot)
            continue
          }
          state.now = max(state.now, first.time)
          if actionsRun == stepLimit {
            // Put the action back, first in line: nothing is lost, a later call can go on.
            state.queue.push(time: first.time, sequence: -1, slot: first.slot)
            isAtStepLimit = true
            return nil
          }
          state.running = state.queue.lineage(of: first.slot)
          var key = first
          let body = state.queue.startRunning(slot: &key.slot)
          return (key, body)
        }
        return nil
      }
      guard let (key, body) = next else { break }
      body()
      actionsRun += 1
      if key.slot == ActionHeap.freedSlot { continue }
      state.withLock { state in
        if !state.queue.slots[key.slot].isCancelled,
          let interval = state.queue.slots[key.slot].interval
        {
          // A repeat keeps its slot, so the handle its scheduler holds keeps stopping it.
          let due = max(state.now, key.time.clampedAdding(interval))
          state.queue.requeue(slot: key.slot, time: due, sequence: state.nextSequence)
          state.nextSequence += 1
        } else {
          state.queue.free(key.slot)
        }
      }
    }
    if isAtStepLimit {
      return RunResult(actionsRun: actionsRun, now: now, failure: stopAtStepLimit(actionsRun))
    }
    let now = state.withLock { state -> Int in
      if let limit { state.now = max(state.now, limit) }
      state.running = nil
      state.isRunning = false
      return state.now
    }
    return RunResult(actionsRun: actionsRun, now: now, failure: nil)
  }

  /// Ends a call that ran `stepLimit` actions with live work still due: records which action kept
  /// rescheduling.
  private func stopAtStepLimit(_ actionsRun: Int) -> TestSchedulerFailure {
    state.withLock { state in
      let queue = state.queue
      let slots = queue.slots
      let pending = queue.pendingKeys.filter { !slots[$0.slot].isCancelled }
      let culprit = pending.max { slots[$0.slot].generation < slots[$1.slot].generation }
      let failure = TestSchedulerFailure(
        kind: .stepLimitExceeded,
        message: "TestScheduler stopped after \(actionsRun) actions (its stepLimit) at tick "
          + "\(state.now), with \(queue.count) still pending. The action that kept "
          + "rescheduling: "
          + (culprit.map { queue.slots[$0.slot].culpritDescription(dueAt: $0.time) } ?? "none")
          + ".")
      state.failures.append(failure)
      state.running = nil
      state.isRunning = false
      return failure
    }
  }
}

extension Int {
  /// `self + other`, or `Int.max` where that would overflow.
  func clampedAdding(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}
