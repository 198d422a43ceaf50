import CMarbleRuntime
@_spi(Internals) import Signals
import Synchronization

/// Never a hang: what ends a process whose test can no longer end.
///
/// A world that gives its work up (a deadlock, a livelock, waiting outside too long) records its
/// report, then cancels its work so that the root's waits end. A wait that cancellation cannot end
/// — a continuation nobody resumes and nothing cancels — would leave the test, and the whole run,
/// hanging. So the root is watched for the world's stall timeout: if it never moves again, the
/// process ends with the report on standard error and a non-zero status, as Go's synctest panics.
/// Outside tests, a world that gives up ends the process at once, the same way.
///
/// A test process whose parent ends (`swift test` killed by a timeout) ends too, once a world has
/// opened in it — open still or not — instead of running on with nobody to read it.
package enum EndingWatch {
  /// What the process says as it ends because a test's waits could not be ended.
  package static let endingNotice =
    "Marbles: the test above waits for something that its world's cancellation cannot end (a "
    + "continuation nobody resumes), so it can never finish; the test process ends here, with "
    + "status 1, rather than hang."

  /// What the process says as it ends because a world outside any test gave up.
  package static let outsideTestsNotice =
    "Marbles: a world outside any test could not go on (see above); the process ends here, with "
    + "status 1."

  /// What the process says as it ends because its parent ended.
  package static let orphanNotice =
    "Marbles: the process that ran these tests has ended; this test process ends too, with "
    + "status 1, rather than run on unread."

  /// Watches `tasks` — the root, or the tasks a root thread waits for; alive while the world
  /// retains them, retained here too — for `timeout` of real time: unless one of them runs, is
  /// enqueued, completes or waits on something else, the process ends with `report`. While
  /// `isOutsideWorkUnderWay` says so (a thread the world started still runs), the watch goes on:
  /// that work may still resume them.
  /// The world's close (`hasClosed`, when its test's body returns) counts as moving on.
  static func watch(
    _ tasks: [MarblesJobRef], report: String, timeout: Duration,
    hasClosed: @escaping @Sendable () -> Bool,
    isOutsideWorkUnderWay: @escaping @Sendable () -> Bool
  ) {
    guard !tasks.isEmpty else { return }
    for task in tasks { Jobs.retain(task) }
    let watched = tasks.map { WatchedTask(task: $0, wait: Jobs.waitIdentity(of: $0)) }
    Platform.startThread {
      var start = SchedulerCore.realNanoseconds()
      let limit = timeout.saturatingNanoseconds
      defer { for task in watched { Jobs.release(task.task) } }
      /// Whether one of the tasks has moved on.
      func hasMoved() -> Bool {
        if hasClosed() { return true }
        return watched.contains { task in
          let status = Jobs.status(of: task.task)
          return status.isComplete || status.isRunning || status.isEnqueued
            || Jobs.waitIdentity(of: task.task) != task.wait
        }
      }
      while SchedulerCore.realNanoseconds() &- start < limit {
        if hasMoved() { return }
        // A task they wait for that can still run (a busy pool may take long to get to it), or
        // a thread the world started that still runs, may yet resume them.
        if isOutsideWorkUnderWay()
          || watched.contains(where: { Jobs.isAwaitingRunnableWork($0.task) })
        {
          start = SchedulerCore.realNanoseconds()
        }
        Platform.sleep(.milliseconds(10))
      }
      if hasMoved() { return }
      Platform.printError(report + "\n" + endingNotice + "\n")
      Platform.endProcess(status: 1)
    }
  }

  /// A world outside any test gave up, having printed why: the process ends.
  static func endOutsideTests() -> Never {
    Platform.printError(outsideTestsNotice + "\n")
    Platform.endProcess(status: 1)
  }

  /// Whether the process looks at its parent: from the first world on, in a process that runs
  /// tests.
  private static let looksAtParent = Atomic(false)

  /// How often the process looks at its parent.
  private static let parentLookPeriod: Duration = .milliseconds(500)

  /// From the first world on, looks at the process's parent on a thread of its own for the rest
  /// of the process, and ends the process once the parent it was started by has ended: called as
  /// a world opens in a process that runs tests.
  /// NB: compared with the parent as the process was loaded, not as the first world opened: a
  /// runner may have ended before then.
  static func noteParent() {
    guard TestFramework.processRunsTests else { return }
    guard !looksAtParent.exchange(true, ordering: .acquiringAndReleasing) else { return }
    // NB: on a thread of its own, which never reads virtual time.
    Platform.startThread {
      while true {
        Platform.sleep(parentLookPeriod)
        checkParent()
      }
    }
  }

  /// Ends the process if the parent it was started by has ended.
  private static func checkParent() {
    guard Platform.parentProcessID != Platform.parentProcessIDAtLoad else { return }
    Platform.printError(orphanNotice + "\n")
    Platform.endProcess(status: 1)
  }
}

/// A task handed to the watching thread, retained while it watches, and the wait it was in.
private struct WatchedTask: @unchecked Sendable {
  // NB: @unchecked: retained by the watch for as long as the thread reads it.
  let task: MarblesJobRef
  let wait: UInt?
}
