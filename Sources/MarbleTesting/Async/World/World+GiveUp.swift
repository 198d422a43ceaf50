import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// Giving up: what a world does when it cannot go on.
extension World {

  /// Records why the world cannot go on — before anything is cancelled, so that a process that
  /// then traps (a `try!` on a cancelled sleep) still shows it — then cancels the world's work
  /// and lets it go, so that the root's waits end.
  ///
  /// - Parameters:
  ///   - report: Why, recorded as the test's failure.
  ///   - waitingOutside: Whether the world waited for work outside it, which may still answer the
  ///     root: the process then ends only after ten times the stall timeout without the root
  ///     moving (a deadlock or a livelock: after the stall timeout).
  ///   - isLivelock: Whether the world's work keeps running (a livelock): a root that kept running
  ///     in it is cancelled even while it runs (a loop that checks for cancellation then ends), and
  ///     the process is not watched — a running root cannot be told from one a busy pool holds
  ///     back.
  /// Whether `task` waits for the value of one of `tasks`, directly or through tasks that wait
  /// for each other's values.
  static func awaits(any tasks: [MarblesJobRef], from task: MarblesJobRef) -> Bool {
    var current = task
    // NB: a chain of awaits is short; the bound only guards against a cycle read mid-change.
    for _ in 0..<64 {
      guard let awaited = Jobs.awaitedTask(of: current) else { return false }
      if tasks.contains(where: { $0 == awaited }) { return true }
      current = awaited
    }
    return false
  }

  func giveUp(because report: String, waitingOutside: Bool = false, isLivelock: Bool = false) {
    let drivers = state.withLock { state -> [TaskDriver]? in
      guard !state.hasGivenUp, !state.isClosed else { return nil }
      state.hasGivenUp = true
      state.isLoopActive = false
      return state.drivers
    }
    guard let drivers, let top = drivers.last, let core = top.core else { return }
    let failure = TestSchedulerFailure(kind: .undrivenWork, message: report)
    core.record(failure, isReported: true)
    guard TestFramework.processRunsTests else {
      // Outside tests nothing records a failure: standard error, and the process ends.
      Platform.printError("\(core.site.filePath):\(core.site.line): error: \(report)\n")
      EndingWatch.endOutsideTests()
    }
    if let reporter, let rootTask,
      isRootHeld(rootTask, onlyADeadlock: !waitingOutside && !isLivelock)
    {
      // As the root would record it where it waits: inside a `withKnownIssue`, a known issue.
      reporter.report(report, at: core.site, asIfBy: WaitingTask(rootTask))
    } else if let reporter {
      reporter.report(report, at: core.site)
    } else {
      FailureReporter.report(report, at: core.site)
    }
    Registry.shared.withLock { $0.remove(self) }
    // What the root waits for: its own task, or the tasks the root thread started.
    let coRoots = state.withLock { $0.coRoots }
    let awaited = Registry.shared.withLock { registry in
      coRoots.compactMap { registry.owners[$0]?.task }
    }
    for task in awaited { Jobs.retain(task) }
    defer { for task in awaited { Jobs.release(task) } }
    var tasks: [MarblesJobRef] = []
    for driver in drivers {
      tasks += Registry.shared.withLock { $0.tasks(of: driver).map(\.task) }
    }
    let cancelled = tasks.filter { !Jobs.status(of: $0).isComplete }
    // A root that waits for its task group's children waits for tasks cancelled here: their ends
    // end its wait, as a task's value does (the runtime does not say which group it is). So does
    // a root that waits for the value of a task cancelled here, or of a task that waits for one:
    // read now, before the cancellations — read when the cancellation of the root is decided, in
    // the test's context and later, such a root may have been resumed and gone on to a wait of
    // its own past the world (its test then saw itself cancelled, once in a loaded full run).
    let rootAwaitsCancelledWork =
      !cancelled.isEmpty
      && rootTask.map {
        Jobs.status(of: $0).dependency == .group || Self.awaits(any: cancelled, from: $0)
      } == true
    // In a livelock the root's own loop needs cancelling to end, if the root kept running in it;
    // a root that only waits is cancelled where its wait needs it, as in a deadlock.
    let rootKeptRunning: Bool =
      if isLivelock, case .task(let id) = root {
        state.withLock { $0.jobsAtOneTime[id] != nil }
      } else {
        false
      }
    for task in cancelled { Jobs.cancel(task) }
    for driver in drivers { driver.abandon(because: failure, evenWhileDraining: true) }
    // The root last, in its test's own context: Swift Testing takes the cancellation of a test's
    // task as the test's own, and records it there. Only while it still waits: the world's
    // cancelled work may have resumed it already, and its test may have gone on past the world.
    if let root = rootTask.map(UncheckedTask.init) {
      let cancel: @Sendable () -> Void = {
        let status = Jobs.status(of: root.task)
        guard !status.isComplete,
          rootKeptRunning
            || (!status.isRunning && !status.isEnqueued && !rootAwaitsCancelledWork
              && !Jobs.isAwaitingRunnableWork(root.task))
        else { return }
        Jobs.cancel(root.task)
      }
      if let reporter { reporter.run(cancel) } else { cancel() }
    }
    // A wait the cancellation cannot end would hang the run: the process ends instead.
    let watched = (rootTask.map { [$0] } ?? awaited).filter { !Jobs.status(of: $0).isComplete }
    let clock = clock
    let stall = top.stallTimeout.saturatingNanoseconds
    let (tenTimes, overflow) = stall.multipliedReportingOverflow(by: 10)
    let timeout = Duration.nanoseconds(waitingOutside ? (overflow ? .max : tenTimes) : stall)
    guard !isLivelock else { return }
    EndingWatch.watch(watched, report: report, timeout: timeout, hasClosed: { [self] in !isOpen }) {
      clock.outsideWork > 0
    }
  }
}

extension World {
  /// Whether the root cannot run while the world gives up, so that its bindings do not change
  /// while they are read. In a deadlock nothing can resume it before its waits are ended (after
  /// the record). In a livelock or a stall, work outside may resume it, but only to enqueue its
  /// next job: where only the world's loop runs the root's jobs (a task's, not the main actor's),
  /// and the loop is the one giving up, that job waits.
  fileprivate func isRootHeld(_ rootTask: MarblesJobRef, onlyADeadlock: Bool) -> Bool {
    // NB: suspended for good, not merely flagged: a root on its way into a wait may still go on.
    guard Jobs.hasSuspended(rootTask) else { return false }
    if onlyADeadlock { return true }
    guard !isRootOnTheMainQueue, !isRootOnTheMainThread else { return false }
    return !state.withLock { $0.isRootRunningElsewhere }
  }
}

/// A task pointer handed to another thread, which only cancels it while the world keeps it alive.
private struct UncheckedTask: @unchecked Sendable {
  // NB: @unchecked: the world retains the task until it deinitializes.
  let task: MarblesJobRef
}
