import CMarbleRuntime
@_spi(Internals) import Signals

/// A `Clock` that reads a ``TestScheduler``'s virtual time: async code under test that takes
/// `some Clock<Duration>` gets `scheduler.clock`, and its sleeps end when the scheduler reaches
/// their deadline — never before, and without any real waiting.
///
/// ```swift
/// func search(_ queries: some AsyncSequence<String, Never>, clock: some Clock<Duration>) … {
///   queries.debounce(for: .milliseconds(300), clock: clock) …
/// }
///
/// let scheduler = TestScheduler(tick: .milliseconds(100))
/// let results = scheduler.record(search(queries, clock: scheduler.clock))
/// ```
///
/// - ``now`` is the scheduler's tick times its tick length, since tick 0; every copy of the clock
///   reads the same time, and it moves by exactly one ``TestScheduler/tick`` per tick.
/// - ``sleep(until:tolerance:)`` schedules the wake-up on the scheduler at the deadline's tick,
///   rounded up: a deadline between ticks ends at the next one, one at or before ``now`` ends at
///   once. The sleeping task resumes inside the `advance`, `run` or `flush` that reaches it.
/// - A cancelled sleep throws `CancellationError` at once and leaves nothing scheduled.
/// - ``minimumResolution`` is one tick.
///
/// `Task.sleep(for:clock:)`, `AsyncTimerSequence` and swift-async-algorithms' time operators all
/// work on it.
public struct TestClock: Clock, Sendable {
  /// A moment of virtual time: how long after tick 0 of its scheduler.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time since tick 0.
    public var offset: Duration

    /// Creates an instant `offset` after tick 0.
    ///
    /// - Parameter offset: The time since tick 0.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` later.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs` on the scheduler's timeline.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// `+0.003 seconds`, the time since tick 0.
    public var description: String { "+\(offset)" }
  }

  let core: SchedulerCore

  init(core: SchedulerCore) {
    self.core = core
  }

  /// The scheduler's current tick, as an instant.
  public var now: Instant {
    Instant(offset: core.tick * core.now)
  }

  /// One tick: nothing happens between ticks.
  public var minimumResolution: Duration {
    core.tick
  }

  /// Suspends until the scheduler reaches `deadline` (rounded up to a tick), or throws
  /// `CancellationError` as soon as the task is cancelled.
  ///
  /// - Parameters:
  ///   - deadline: When to wake up.
  ///   - tolerance: Ignored: virtual time is exact.
  /// - Throws: `CancellationError` if the task is or gets cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let tick = core.ticks(deadline.offset)
    guard tick > core.now else { return }
    let driver = core.driver
    let sleep = Sleep(task: swift_task_getCurrent(), wakeTick: tick)
    guard driver.register(sleep) else {
      // The scheduler gave its work up (nothing drove it): the task winds down instead of waiting
      // for a wake-up that never comes.
      withUnsafeCurrentTask { $0?.cancel() }
      throw CancellationError()
    }
    defer { driver.unregister(sleep) }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation {
        (continuation: UnsafeContinuation<Void, any Error>) in
        let wakeUp = core.scheduleWakeUp(at: tick, task: Jobs.currentTaskID) {
          sleep.end(with: nil)
        }
        sleep.start(continuation, wakeUp: wakeUp)
        driver.world?.wake()
      }
    } onCancel: {
      sleep.end(with: CancellationError())
    }
  }
}

/// One sleep on a ``TestClock``: resumed once, by the scheduler's wake-up or by cancellation,
/// whichever comes first; cancellation also removes the wake-up.
private final class Sleep: AbandonableSleep {
  private enum State {
    case waiting
    case sleeping(UnsafeContinuation<Void, any Error>, wakeUp: any Disposable)
    /// Ended before the continuation was there (cancelled first), with this error.
    case ended((any Error)?)
    case resumed
  }

  private let state = Locked(State.waiting)
  /// The sleeping task, to cancel if the scheduler gives up.
  ///
  /// NB: only dereferenced by ``abandon()`` while the task is suspended in this sleep, which keeps
  /// it alive.
  private nonisolated(unsafe) let task: MarblesJobRef?
  let taskID: UInt64?
  let wakeTick: Int

  init(task: MarblesJobRef?, wakeTick: Int) {
    self.task = task
    self.wakeTick = wakeTick
    taskID = task.map { swift_task_getJobTaskId($0) }
  }

  /// The continuation is there; resumes it at once if the sleep has already ended.
  func start(_ continuation: UnsafeContinuation<Void, any Error>, wakeUp: any Disposable) {
    let ended = state.withLock { state -> (any Error)?? in
      guard case .ended(let error) = state else {
        state = .sleeping(continuation, wakeUp: wakeUp)
        return nil
      }
      state = .resumed
      return .some(error)
    }
    guard let ended else { return }
    wakeUp.dispose()
    resume(continuation, ended)
  }

  /// Ends the sleep: `nil` for the wake-up, an error for cancellation.
  func end(with error: (any Error)?) {
    guard let (continuation, wakeUp) = take(endingWith: error) else { return }
    if error != nil { wakeUp.dispose() }
    resume(continuation, error)
  }

  /// Resumes the sleeping task with `CancellationError`, cancelling it first if asked.
  func abandon(cancellingItsTask: Bool) {
    guard let (continuation, wakeUp) = take(endingWith: CancellationError()) else { return }
    wakeUp.dispose()
    // The task stays suspended here until the resume below: cancelling it first is safe, and runs
    // its cancellation handlers (this sleep's own finds the sleep over).
    if cancellingItsTask, let task { swift_task_cancel(task) }
    resume(continuation, CancellationError())
  }

  /// Marks the sleep over and takes its continuation, if it is waiting for one.
  private func take(endingWith error: (any Error)?)
    -> (UnsafeContinuation<Void, any Error>, any Disposable)?
  {
    state.withLock { state -> (UnsafeContinuation<Void, any Error>, any Disposable)? in
      switch state {
      case .waiting:
        state = .ended(error)
        return nil
      case .sleeping(let continuation, let wakeUp):
        state = .resumed
        return (continuation, wakeUp)
      case .ended, .resumed:
        return nil
      }
    }
  }

  private func resume(_ continuation: UnsafeContinuation<Void, any Error>, _ error: (any Error)?) {
    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
  }
}

extension TestScheduler {
  /// A `Clock` on this scheduler's virtual time (see ``TestClock``): pass it to async code that
  /// takes `some Clock<Duration>`.
  public var clock: TestClock {
    TestClock(core: core)
  }
}
