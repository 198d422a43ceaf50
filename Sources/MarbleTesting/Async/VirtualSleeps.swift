import CMarbleDriving
import CMarbleRuntime
@_spi(Internals) import Signals

#if compiler(>=6.3)
  @_spi(ExperimentalScheduling) @_spi(ExperimentalCustomExecutors) import _Concurrency
#endif

/// The standard library's own sleeps — `Task.sleep(for:)`, `Task.sleep(nanoseconds:)`,
/// `Task.sleep(until:clock:)`, `ContinuousClock` and `SuspendingClock` — in virtual time, for the
/// tasks a scheduler drives.
///
/// ## How a sleep gets here
///
/// Since Swift 6.3 every standard sleep asks the runtime for the current *scheduling executor*
/// (SE-0505's `SchedulingExecutor`, still SPI): the serial executor running the job, then the
/// task's executor preference, then the task executor the job runs on, and last the process's
/// default executor — and enqueues a small wake-up task there with the deadline, read from the
/// real clock. None of Marbles' executors is a scheduling executor, so every sleep falls through
/// to the default executor, which Marbles replaces (once, when the process loads, with
/// `_createExecutors(factory:)`) by ``SleepRouter``: an executor with no state of its own that
/// asks ``DrivenWorld`` about every job and every sleep enqueued on it, and hands the rest to the
/// runtime's original default executor. There the one routing
/// decision is asked of the sleeping task (the current task): if a driver drives it, the wake-up
/// is scheduled on that driver's scheduler — the queue `scheduler.clock` sleeps use — at
/// `now + ceil(duration / tick)`; otherwise the sleep goes to the original executor, in real time.
/// This catches sleeps inside default actors and in a `Task.immediate`'s first steps, which a
/// task executor preference alone misses.
///
/// ## The deadline is a real instant
///
/// The runtime hands over `realNow + duration`, with `realNow` read before the call reached
/// Marbles; a thread preempted in between would make `deadline - now` short. So Marbles records
/// the caller's reading itself and takes the duration back exactly (``SleepDuration``).
///
/// ## Toolchains
///
/// - Swift 6.3 (checked on 6.3.1, Linux): as above.
/// - Before 6.3 the SPI does not exist; the code is left out and standard sleeps keep real time.
///   A driven task woken by one is noted as resumed from outside virtual time.
/// - After 6.3: SE-0505 is redesigning this SPI; if a newer runtime stops asking the default
///   executor, standard sleeps keep real time as before 6.3, and the tests of this file fail.
/// - On Apple platforms it needs the OS's 26.4 runtime, and is untested.
enum VirtualSleeps {
  /// Replaces the default executor with ``SleepRouter``, once, where the toolchain allows.
  static func install() {
    _ = isRouting
  }

  /// Whether ``SleepRouter`` is the default executor: standard sleeps, and every job enqueued on
  /// the default executor directly (`Task.yield()` from a nonisolated task does), reach the
  /// driven world.
  static let isRouting: Bool = {
    #if compiler(>=6.3)
      if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
        return SleepRouter.install()
      }
    #endif
    return false
  }()
}

#if compiler(>=6.3)
  /// The process's default executor while Marbles is loaded: every job goes to the original one;
  /// a standard sleep goes to the scheduler that drives the sleeping task, if any.
  ///
  /// NB: no stored state. The runtime reads the default executor (two words: object and witness
  /// table) without a lock, and it is replaced while other threads run; a reader that saw half of
  /// the old value and half of the new one calls one class's code with the other's object, which
  /// is harmless only because neither executor's code reads its object.
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  final class SleepRouter: TaskExecutor, SchedulingExecutor {
    /// The runtime's own default executor, read (once, before the replacement) by `install()`.
    private static let original: any TaskExecutor = Task.defaultExecutor
    private static let originalScheduling = original as? any SchedulingExecutor
    /// The main executor, which the replacement keeps.
    private static let main: any MainExecutor = MainActor.executor

    /// Makes a router the default executor, keeping the main executor as it is.
    ///
    /// - Returns: Whether it did: the runtime's default executor schedules sleeps.
    static func install() -> Bool {
      guard originalScheduling != nil else { return false }
      _ = main
      _createExecutors(factory: Factory.self)
      return true
    }

    private enum Factory: ExecutorFactory {
      static var mainExecutor: any MainExecutor { SleepRouter.main }
      static var defaultExecutor: any TaskExecutor { SleepRouter() }
    }

    /// A job enqueued on the default executor: the driven world's, or the original executor's.
    /// (The global-enqueue hook has decided already for the jobs it lets through, and bypasses
    /// the decision here.)
    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      if !DrivenWorld.take(unsafeBitCast(job, to: MarblesJobRef.self), on: .global) {
        Self.original.enqueue(ExecutorJob(job))
      }
    }

    func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
      // NB: the caller's reading first: Marbles' own read of the clock replaces the thread's last.
      let reading = marbles_step_reading()
      let remaining = clock.now.duration(to: instant)
      let observed = marbles_last_reading()
      let wake = UnownedJob(job)
      if let remaining = remaining as? Duration,
        let (driver, task) = DrivenWorld.driverOfTheCurrentTask(),
        driver.sleep(
          task, wake: wake,
          for: SleepDuration.of(clock, remaining: remaining, reading: reading, observed: observed))
      {
        return
      }
      Self.originalScheduling!.enqueue(
        ExecutorJob(wake), at: instant, tolerance: tolerance, clock: clock)
    }
  }
#endif

/// A standard sleep's duration, read back from the real deadline it arrived as.
///
/// The deadline is `reading + duration`, with `reading` the caller's read of the real clock. On
/// Linux, CMarbleRuntime records each thread's readings of the two standard clocks, and Marbles
/// reads the clock again (`observed`, `remaining` to the deadline): the duration is
/// `remaining + (observed - reading)`, exactly, however long the thread was preempted in between.
/// Where no reading of that clock was made in the sleeping task's current step — a deadline
/// computed in an earlier step, or a platform that records none — it is `remaining`: as if the
/// deadline had been computed at the tick the sleep starts.
enum SleepDuration {
  static func of<C: Clock>(
    _ clock: C, remaining: Duration, reading: marbles_clock_reading,
    observed: marbles_clock_reading
  ) -> Duration {
    if clock is ContinuousClock, reading.hasContinuous, observed.hasContinuous {
      return remaining + .nanoseconds(observed.continuous - reading.continuous)
    }
    if clock is SuspendingClock, reading.hasSuspending, observed.hasSuspending {
      return remaining + .nanoseconds(observed.suspending - reading.suspending)
    }
    return remaining
  }
}
