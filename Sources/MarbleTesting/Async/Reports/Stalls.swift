@_spi(Internals) import Signals
import Synchronization

/// What a driver does when nobody drives it: the watchdog's look, and giving the work up.
///
/// A driver whose jobs have been ready — or whose tasks have slept in virtual time — for
/// ``TaskDriver/stallTimeout`` of real time with nobody driving it (a test awaiting a driven
/// task's value before `run()`) is given up by the ``Watchdog``: its tasks are cancelled and
/// handed to the runtime's own executors, so the await ends, and the scheduler records a
/// ``TestSchedulerFailure`` that the next assertion, `flush()`, or the scheduler's release
/// reports.
extension TaskDriver {
  /// Whether the driver has let its work go: it then takes no new work.
  var hasLetGo: Bool {
    isAbandoned.load(ordering: .acquiring)
  }

  /// Why the driver let its work go, if it has.
  package var abandonment: TestSchedulerFailure? {
    watch.withLock { $0.abandonment }
  }

  /// The watchdog's look: `true` once jobs have been ready, or driven tasks asleep in virtual
  /// time, for ``stallTimeout`` (less the watchdog's own period, so the whole wait stays within
  /// it) with no drain begun — a test awaiting a driven task that nobody drives.
  ///
  /// A task asleep after its test ended (an endless timer kept alive by a cycle) is given up
  /// too; that is not reported, since its test is over (see `TestScheduler`'s `deinit`).
  func isStalled(at now: ContinuousClock.Instant, period: Duration) -> Bool {
    // A world whose root is a task drives itself while the test waits; its loop decides.
    if let world, world.hasTaskRoot { return false }
    let drainsBegun = drains.load(ordering: .relaxed)
    let hasReadyJobs = readyJobCount > 0
    let isDraining = isDraining
    return watch.withLock { watch in
      guard watch.abandonment == nil, !isDraining,
        hasReadyJobs || !watch.sleeps.isEmpty || !watch.standardSleeps.isEmpty
      else {
        watch.stalledSince = nil
        return false
      }
      guard let since = watch.stalledSince, since.drains == drainsBegun else {
        watch.stalledSince = (now, drainsBegun)
        return false
      }
      return since.at.duration(to: now) >= stallTimeout - period
    }
  }

  /// What the driver's sleeping tasks wait for: each with its wake tick, earliest first.
  var sleepingTasks: [(taskID: UInt64?, wakeTick: Int)] {
    watch.withLock { watch in
      let sleeps: [(taskID: UInt64?, wakeTick: Int)] =
        watch.sleeps.values.map { ($0.taskID, $0.wakeTick) }
        + watch.standardSleeps.values.map { ($0.taskID, $0.wakeTick) }
      return sleeps.sorted { $0.wakeTick < $1.wakeTick }
    }
  }

  /// Lets the driver's work go: cancels its ready tasks and hands them to the runtime's own
  /// executors, wakes its sleeping tasks with cancellation (the world's root, the test's own
  /// task, is woken but not cancelled here), and sends every later job straight where it would
  /// have gone. Happens once; a drain in progress prevents it, unless
  /// `evenWhileDraining` (a world that closes — from inside its own work — lets everything go).
  ///
  /// - Parameters:
  ///   - failure: Why.
  ///   - record: Called once the driver has let go, before the work is released — so that
  ///     whoever the released work wakes finds the failure recorded.
  /// - Returns: Whether this call gave the work up.
  @discardableResult
  func abandon(
    because failure: TestSchedulerFailure, evenWhileDraining: Bool = false, record: () -> Void = {}
  ) -> Bool {
    var sleeps: [any AbandonableSleep] = []
    let jobs = takeEveryReadyJob {
      let taken = watch.withLock { watch -> [any AbandonableSleep]? in
        guard watch.abandonment == nil, evenWhileDraining || !isDraining else { return nil }
        watch.abandonment = failure
        isAbandoned.store(true, ordering: .releasing)
        defer {
          watch.sleeps = [:]
          watch.standardSleeps = [:]
          standardSleepCount.store(0, ordering: .releasing)
        }
        return Array(watch.sleeps.values) + watch.standardSleeps.values.map { $0 }
      }
      sleeps = taken ?? []
      return taken != nil
    }
    guard let jobs else { return false }
    record()
    // NB: never the world's root, the test's own task: Swift Testing takes a cancellation of it as
    // the test's, in the context of whoever cancels — here a thread of no test, an API misuse
    // («unknown») — so the world cancels its root itself, in the test's context, where its waits
    // need it (`giveUp`).
    for job in jobs {
      Self.release(job, cancelling: world?.isRoot(job.taskID) != true)
    }
    for sleep in sleeps { sleep.abandon(cancellingItsTask: world?.isRoot(sleep.taskID) != true) }
    return true
  }
}

/// A sleep on the scheduler's clock, which a driver that gives its work up wakes with
/// cancellation.
protocol AbandonableSleep: AnyObject, Sendable {
  /// The sleeping task's id, if known.
  var taskID: UInt64? { get }
  /// The tick it wakes at.
  var wakeTick: Int { get }
  /// Ends the sleep: cancels the sleeping task, if asked, and resumes it — throwing
  /// `CancellationError` when it was cancelled.
  func abandon(cancellingItsTask: Bool)
}
