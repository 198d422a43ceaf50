import CMarbleRuntime

#if MARBLES_TESTED_RUNTIME
  @_spi(ExperimentalScheduling) @_spi(ExperimentalCustomExecutors) import _Concurrency
#endif

/// The process's default executor, replaced by Marbles' ``SleepRouter`` at the first scheduler
/// that drives tasks, so that standard sleeps and jobs enqueued on the default executor reach the
/// driven world.
///
/// ## Why the default executor
///
/// Since Swift 6.3 every standard sleep (`Task.sleep(for:)`, `Task.sleep(nanoseconds:)`,
/// `Task.sleep(until:clock:)`, `ContinuousClock` and `SuspendingClock`) asks the runtime for the
/// current *scheduling executor* (SE-0505's `SchedulingExecutor`, still SPI): the serial executor
/// running the job, then the task's executor preference, then the task executor the job runs on,
/// and last the default executor — and enqueues a small wake-up task there with the deadline. None
/// of Marbles' executors is a scheduling executor, so every sleep reaches the default executor,
/// also inside default actors and in a `Task.immediate`'s first steps, which a task executor
/// preference alone misses.
///
/// ## Toolchains
///
/// SE-0505 is being redesigned; this is compiled only for the toolchains Marbles was tested on
/// (`MARBLES_TESTED_RUNTIME`). Elsewhere standard sleeps keep real time, and a driven task woken
/// by one is noted as resumed from outside virtual time. On Apple platforms it needs the OS's 26.4
/// runtime, and is untested.
enum DefaultExecutor {
  /// Replaces the default executor with ``SleepRouter``, once, where the toolchain allows.
  static func install() {
    _ = isRouting
  }

  /// Whether the runtime's default executor is Marbles' now (read from the runtime).
  static var isDefault: Bool {
    #if MARBLES_TESTED_RUNTIME
      if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
        return Task.defaultExecutor is SleepRouter
      }
    #endif
    return false
  }

  /// Whether ``SleepRouter`` is the default executor.
  static let isRouting: Bool = {
    #if MARBLES_TESTED_RUNTIME
      if #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) {
        return SleepRouter.install()
      }
    #endif
    return false
  }()
}

#if MARBLES_TESTED_RUNTIME
  /// The process's default executor once a scheduler was made: every job goes to the original
  /// one unless the driven world takes it; a standard sleep goes to the virtual time of whoever it
  /// belongs to (``VirtualSleeps``), or to the original executor.
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
    /// The main executor, which the replacement keeps: the runtime's own.
    static let main: any MainExecutor = MainActor.executor

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
      if !Membership.take(unsafeBitCast(job, to: MarblesJobRef.self), on: .global) {
        Self.original.enqueue(ExecutorJob(job))
      }
    }

    func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
      let wake = UnownedJob(job)
      // Read where the sleep starts: virtual time in driven work and in a test's task.
      let remaining = clock.now.duration(to: instant)
      if let duration = remaining as? Duration, VirtualSleeps.take(wake, for: duration) { return }
      // A deadline read on a virtual clock means nothing to the original executor: it gets the
      // same distance from the real now.
      // NB: in real time: the original executor arms a Dispatch timer source, which a world
      // would otherwise take for its own.
      let deadline =
        RealTime.isVirtualHere ? RealTime.reading { clock.now }.advanced(by: remaining) : instant
      RealTime.reading {
        Self.originalScheduling!.enqueue(
          ExecutorJob(wake), at: deadline, tolerance: tolerance, clock: clock)
      }
    }
  }
#endif
