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
/// - At one tick, the harness's actions — the subscriptions and disposals that
///   ``record(_:subscribeAt:disposeAt:)->TestSubscriber<S.Value,S.Failure>`` (and with it `expect`, tables and fixtures) schedules —
///   run before every other action, whenever those were scheduled. So a subscriber at tick 3 sees a
///   hot signal's event at tick 3, and one disposed at tick 3 does not, as in RxJS.
/// - The clock never moves backwards: an action scheduled in the past runs at ``now``.
/// - A `Duration` becomes ticks rounding up, so nothing runs early.
/// - A repeating action is rescheduled from its due time, not from when it ran.
/// - The queue is a binary heap, O(log n) per action, with an O(1) fast path for work scheduled in
///   time order (most of it: hot signals, same-tick follow-ups).
/// - No lock is held while an action runs, so actions may schedule, subscribe and send freely.
/// - Async work — the tasks of ``task(name:fileID:line:_:)``, `record(sequence)` and what they
///   create — runs on this scheduler's thread too: every ready job before each action and before
///   a call returns (the article "Testing async/await code" in the Marbles documentation explains how), with ``clock`` as their clock.
/// - ``run()`` stops after ``stepLimit`` steps (actions, and driven tasks' wake-ups; with the
///   default, also after 5 s of real time past a million steps) instead of hanging on an endless
///   timer; the result and ``failures`` say which limit stopped it and what kept it going.
/// - Using the scheduler from two threads at once (or calling `advance` from inside an action) is
///   refused with a ``TestSchedulerFailure`` rather than corrupting the queue.
///
/// There are no globals: make one scheduler per test, and tests run in parallel safely. Test
/// signals, recorders and expectations do not keep their scheduler alive, so a scheduler is
/// released when its test lets go of it — and reports, through the `Marbles` assertions, every
/// `expect(…)` that no `flush()` checked.
public final class TestScheduler: Scheduler, SchedulerWithStandIn {
  /// The default for ``stepLimit``: ten million actions per `run()` or `advance` call — or, once a
  /// call has run a million, as many as 5 seconds of real time allow, whichever comes first (ten
  /// million steps of an endless timer take a minute in a debug build). The failure says which
  /// limit stopped the call. Any other `stepLimit` is a number of steps only.
  public static let defaultStepLimit = 10_000_000

  /// The engine that test signals, recorders and handles hold instead of the scheduler.
  package let core: SchedulerCore
  /// Whether this object made the engine (rather than standing for a world's clock,
  /// ``current``), and lets it go when released.
  private let ownsCore: Bool
  /// The `expect(…)` registrations that no `flush()` has checked yet, by registration order.
  private let expectations = Locked(ExpectationLedger())

  /// The default for ``stallTimeout``: ten seconds.
  public static let defaultStallTimeout = Duration.seconds(10)

  /// Creates a scheduler whose clock reads tick 0.
  ///
  /// From now on, the tasks this test starts — `Task { }`, `Task.detached`, a task that code under
  /// test starts in an `init` or a `didSet` — are driven by this scheduler (see
  /// "Testing async/await code" in the Marbles documentation).
  ///
  /// - Parameters:
  ///   - tick: The virtual length of one tick (one marble frame); positive.
  ///   - stepLimit: How many actions one `run()` or `advance` call may run.
  ///   - stallTimeout: How long, in real time, driven work may wait with nothing driving it (a
  ///     test awaiting a driven task before `run()`), or a drain may wait for the main actor,
  ///     before the scheduler gives up and reports it instead of hanging; positive.
  ///   - fileID: The caller's file ID (filled in for you), for reports no assertion carries.
  ///   - filePath: The caller's file path (filled in for you).
  ///   - line: The caller's line (filled in for you).
  ///   - column: The caller's column (filled in for you).
  /// - Precondition: `tick > .zero`, `stepLimit > 0` and `stallTimeout > .zero`.
  public init(
    tick: Duration = .milliseconds(1), stepLimit: Int = TestScheduler.defaultStepLimit,
    stallTimeout: Duration = TestScheduler.defaultStallTimeout,
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    precondition(tick > .zero, "A TestScheduler's tick must be positive (got \(tick)).")
    precondition(stepLimit > 0, "A TestScheduler's stepLimit must be positive (got \(stepLimit)).")
    precondition(
      stallTimeout > .zero, "A TestScheduler's stallTimeout must be positive (got \(stallTimeout))."
    )
    core = SchedulerCore(
      tick: tick, stepLimit: stepLimit, stallTimeout: stallTimeout,
      site: SchedulerSite(fileID: fileID, filePath: filePath, line: line, column: column))
    ownsCore = true
    core.adopt(by: self)
  }

  /// A scheduler object for an engine that lives on (its world's clock).
  private init(standingFor core: SchedulerCore) {
    self.core = core
    ownsCore = false
  }

  /// The scheduler on top of the test's world (see ``withVirtualTime(tick:stepLimit:stallTimeout:fileID:filePath:line:column:function:_:)``), if a
  /// world is open here: the one `@Test(.virtualTime)`, `withVirtualTime` or the test's first
  /// `TestScheduler()` made, or the latest one made inside it.
  public static var current: TestScheduler? {
    guard let core = World.current?.top?.core else { return nil }
    return core.scheduler ?? TestScheduler(standingFor: core)
  }

  deinit {
    let unchecked = expectations.withLock { $0.takeAll() }
    for expectation in unchecked { expectation.unchecked(expectation.check != nil) }
    // A hang that was prevented is a failure even if no assertion came after it — when the test
    // lets go of the scheduler. One released by a leftover task it drove, after its test, is not
    // reported: that test is over, and whether the process lived long enough to notice is chance.
    let isReleasedByItsTest = World.isRunningCode(of: core.driver)
    guard ownsCore else { return }
    // Pending closures may hold what holds the core: release them so that such cycles end here —
    // unless the engine is its world's clock, which the world keeps until it closes.
    if !core.isKeptByItsWorld { core.removeAll() }
    core.release()
    if isReleasedByItsTest {
      core.reportUnreportedStalls()
      core.reportEventsNeverTaken()
    }
  }

  /// What operators keep instead of the scheduler: its engine, so that an operator waiting in the
  /// queue does not keep the scheduler alive.
  package var standIn: any Scheduler { core }

  /// The length of one tick (and one marble frame).
  public var tick: Duration { core.tick }

  /// How many steps — actions, and wake-ups of driven tasks — one `run()` or `advance` call may
  /// run before it gives up.
  public var stepLimit: Int { core.stepLimit }

  /// How long, in real time, driven work may wait with nothing driving it, or a drain may wait for
  /// the main actor, before the scheduler gives up and reports it (``TestSchedulerFailure/Kind-swift.enum/undrivenWork``,
  /// ``TestSchedulerFailure/Kind-swift.enum/mainActorUnavailable``) instead of hanging.
  public var stallTimeout: Duration { core.driver.stallTimeout }

  /// The current virtual time, in ticks.
  public var now: Int { core.now }

  /// Whether no action is waiting to run (cancelled actions still count until their time comes).
  public var isIdle: Bool { core.isIdle }

  /// Whether any action that has not been cancelled is waiting to run, or a job of a task the
  /// scheduler drives is ready to run. A task sleeping on ``clock`` counts (its wake-up is an
  /// action); a cancelled sleep does not.
  ///
  /// The check for "disposing cancelled all pending work": after a disposal, an operator that
  /// cleaned up leaves nothing here, though its cancelled actions stay queued (and are skipped)
  /// until their time. O(n) in the queue's length.
  public var hasScheduledWork: Bool { core.hasLiveWork }

  /// How many actions are waiting, cancelled ones included until their time comes.
  public var pendingActionCount: Int { core.pendingActionCount }

  /// Every failure so far: step limits hit and concurrent use refused.
  public var failures: [TestSchedulerFailure] { core.failures }

  /// The failures not yet taken by an earlier call, marking them taken.
  ///
  /// For assertion libraries: the `Marbles` assertions call this so that a step limit hit or a
  /// refused concurrent call is reported as a test failure exactly once, by the next assertion.
  ///
  /// - Returns: The failures since the previous call.
  public func takeUnreportedFailures() -> [TestSchedulerFailure] {
    core.takeUnreportedFailures()
  }

  /// `duration` in whole ticks, rounding up; zero or negative durations are 0 ticks.
  ///
  /// - Parameter duration: The duration to convert.
  /// - Returns: The number of ticks.
  public func ticks(_ duration: Duration) -> Int {
    core.ticks(duration)
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
    core.schedule(at: time, action)
  }

  /// Schedules `action` at the current tick; it runs at the next `advance` or `run()`.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    core.schedule(action)
  }

  /// Schedules `action` once `delay` (rounded up to whole ticks) has passed.
  @discardableResult
  public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
    -> any Disposable
  {
    core.schedule(after: delay, action)
  }

  /// Schedules a repeating action. An interval shorter than one tick counts as one tick.
  @discardableResult
  public func schedule(
    after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    core.schedule(after: delay, interval: interval, action)
  }

  // MARK: Running

  /// Moves the clock forward by `ticks`, running every action due by then.
  ///
  /// - Parameter ticks: How far to move; `0` runs what is due now.
  /// - Returns: What ran, and whether the call stopped early.
  @discardableResult
  public func advance(by ticks: Int) -> RunResult {
    core.advance(by: ticks)
  }

  /// Moves the clock forward by `duration`, rounded up to whole ticks, running every action due by
  /// then.
  ///
  /// ```swift
  /// let scheduler = TestScheduler(tick: .milliseconds(10))
  /// scheduler.advance(by: .milliseconds(25))   // 3 ticks: now == 3
  /// ```
  ///
  /// - Parameter duration: How far to move; zero or negative runs what is due now.
  /// - Returns: What ran, and whether the call stopped early.
  @discardableResult
  public func advance(by duration: Duration) -> RunResult {
    core.advance(by: core.ticks(duration))
  }

  /// Moves the clock to tick `time`, running every action due by then. The clock never moves
  /// backwards: an earlier `time` only runs what is due now.
  ///
  /// - Parameter time: The tick to move to.
  /// - Returns: What ran, and whether the call stopped early.
  @discardableResult
  public func advance(to time: Int) -> RunResult {
    core.advance(to: time)
  }

  /// Runs every action, moving the clock to each one's time, until the queue is empty or the step
  /// limit is reached (an endless timer). The clock stays at the last action's time.
  ///
  /// `run()` does not check `expect(…).toBe(…)` expectations; `flush()` (in `Marbles`) runs the
  /// scheduler and then checks them.
  ///
  /// - Returns: What ran, and — if it stopped at the step limit — which action kept rescheduling.
  @discardableResult
  public func run() -> RunResult {
    core.run()
  }

  // MARK: Expectations (for assertion libraries)

  /// Registers an expectation made by an assertion library's `expect(…)`, not yet stated.
  ///
  /// - Parameter unchecked: Called if the scheduler is released while the expectation is still
  ///   registered (no `flush()` took it), with whether it was stated; it reports the mistake.
  /// - Returns: The expectation's number, for ``state(expectation:check:unchecked:)``.
  package func registerExpectation(unchecked: @escaping @Sendable (_ stated: Bool) -> Void) -> Int {
    expectations.withLock { $0.add(PendingExpectation(check: nil, unchecked: unchecked)) }
  }

  /// Gives registered expectation `id` the check its `toBe(…)` states. If a `flush()` already took
  /// it unstated, it is registered again, for the next `flush()`.
  package func state(
    expectation id: Int, check: @escaping @Sendable () -> Void,
    unchecked: @escaping @Sendable (_ stated: Bool) -> Void
  ) {
    expectations.withLock { ledger in
      if !ledger.state(id, check: check) {
        _ = ledger.add(PendingExpectation(check: check, unchecked: unchecked))
      }
    }
  }

  /// Takes every registered expectation, in registration order, for `flush()` to check.
  package func takeExpectations() -> [PendingExpectation] {
    expectations.withLock { $0.takeAll() }
  }
}

/// An `expect(…)` a ``TestScheduler`` holds until a `flush()` checks it.
package struct PendingExpectation: Sendable {
  /// What its `toBe(…)` stated, or `nil` if it has none yet.
  package var check: (@Sendable () -> Void)?
  /// Reports that it was never checked; the argument says whether it was stated.
  package let unchecked: @Sendable (_ stated: Bool) -> Void
}

/// The expectations a scheduler holds, in registration order.
struct ExpectationLedger {
  private var entries: [(id: Int, expectation: PendingExpectation)] = []
  private var nextID = 0

  mutating func add(_ expectation: PendingExpectation) -> Int {
    defer { nextID += 1 }
    entries.append((nextID, expectation))
    return nextID
  }

  /// Sets the check of entry `id`; `false` if there is no such entry.
  mutating func state(_ id: Int, check: @escaping @Sendable () -> Void) -> Bool {
    guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
    entries[index].expectation.check = check
    return true
  }

  mutating func takeAll() -> [PendingExpectation] {
    defer { entries = [] }
    return entries.map(\.expectation)
  }
}
