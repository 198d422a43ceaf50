import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// Closing a world: with its test or its closure, whoever still holds a scheduler.
extension World {

  /// Closes the world: its pending work is cancelled and let go, every scheduler of it stops
  /// driving, its clock lets go of the readings, and nothing of it is routed any more. Whoever
  /// still holds a scheduler of it keeps a scheduler of signals and actions only. What was still
  /// waiting is named in a warning, each task with what it waited for — on the test where it is
  /// still running, else on standard error — unless the world gave its work up and said why.
  ///
  /// - Parameter finishingReports: Whether the world's reporter finishes now; `false` for a
  ///   closer that waits for it to finish.
  /// - Returns: What was still waiting when it closed.
  @discardableResult
  package func close(finishingReports: Bool = true) -> [String] {
    let site = top?.core?.site
    let waiting = state.withLock { $0.isClosed || $0.hasGivenUp } ? [] : closingDescriptions()
    let drivers = state.withLock { state -> [TaskDriver]? in
      guard !state.isClosed else { return nil }
      state.isClosed = true
      defer {
        state.drivers = []
        state.rootStack = []
        state.madeByTasks = [:]
        state.anchor = nil
      }
      return state.drivers
    }
    guard let drivers else { return [] }
    Registry.shared.withLock { $0.remove(self) }
    for driver in drivers {
      driver.abandon(
        because: TestSchedulerFailure(
          kind: .undrivenWork,
          message: "The world of the test closed with this work still pending; it was cancelled "
            + "and let go."),
        evenWhileDraining: true)
      let tasks = Registry.shared.withLock { $0.forgetTasks(of: driver) }
      // NB: their numbers are not kept: what the closing world says of them is said above.
      for task in tasks { Jobs.release(task.task) }
      VirtualTimerSource.forget(driver)
    }
    clock.release()
    // The world's clock: its pending closures may hold what holds it.
    drivers.first?.core?.removeAll()
    if let current = TaskDriver.current, drivers.contains(where: { $0 === current }) {
      current.leaveRunningJob()
    }
    RealTime.reading { _ = arrivals.signal() }
    if let site, !waiting.isEmpty { warnOfWork(waiting, at: site) }
    if finishingReports { reporter?.finishSoon() }
    RuntimeHooks.worldCloses()
    return waiting
  }

  /// Names in a warning the work still waiting as the world closes: on its test while the test
  /// runs (a scope's close, an XCTest test case's teardown), else on standard error — a Swift
  /// Testing test whose task has finished takes no more issues.
  private func warnOfWork(_ waiting: [String], at site: SchedulerSite) {
    let message =
      "The test's world closed with work still waiting, which was cancelled:\n"
      + waiting.map { "  - \($0)" }.joined(separator: "\n")
    switch opening {
    case .scope, .test(.xcTest):
      if let reporter {
        reporter.warn(message, at: site)
        return
      }
    case .test(.swiftTesting), .outsideTests:
      break
    }
    FailureReporter.warn(message, at: site)
  }

  /// Closes the world when the root task has finished; `true` if it had.
  @discardableResult
  func closeIfRootFinished() -> Bool {
    guard let status = rootStatus, status.isComplete else { return false }
    state.withLock { $0.hasRootFinished = true }
    if opening != .scope { close() }
    return true
  }
}
