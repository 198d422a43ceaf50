@_spi(Internals) import Signals

/// How the `Marbles` module reports a failure on the test that is running, for failures that no
/// assertion carries: a hang the scheduler prevented, reported when the scheduler is released.
///
/// `MarbleTesting` imports no test framework; it finds the `Marbles` module's reporter at run time,
/// by its type's name, when `Marbles` is linked into the process. Without it, the failure is
/// printed to standard error, and stays in ``TestScheduler/failures``.
package protocol FailureReporting {
  /// Reports `message` on the current test, at `site`.
  static func report(_ message: String, at site: SchedulerSite)
}

enum FailureReporter {
  /// `Marbles.TestIssueRecorder`, if `Marbles` is in the process.
  static var marbles: (any FailureReporting.Type)? {
    _typeByName("7Marbles17TestIssueRecorderO") as? any FailureReporting.Type
  }

  static func report(_ message: String, at site: SchedulerSite) {
    if let marbles {
      marbles.report(message, at: site)
    } else {
      Platform.printError("\(site.filePath):\(site.line): error: \(message)\n")
    }
  }
}

extension SchedulerCore {
  /// Reports the prevented hangs (work given up, the main actor out of reach) that no assertion
  /// has reported, each once.
  func reportUnreportedStalls() {
    let stalls = state.withLock { state -> [TestSchedulerFailure] in
      defer { state.reportedFailures = state.failures.count }
      return state.failures[state.reportedFailures...].filter {
        $0.kind == .undrivenWork || $0.kind == .mainActorUnavailable
      }
    }
    for stall in stalls { FailureReporter.report(stall.message, at: site) }
  }
}

extension SchedulerCore {
  /// Reports, for each recorder the test read step by step and that is still alive, the events
  /// it never took.
  func reportEventsNeverTaken() {
    let checks = steppedRecorders.withLock { recorders in
      defer { recorders = [:] }
      return Array(recorders.values)
    }
    for check in checks {
      if let (message, site) = check() { FailureReporter.report(message, at: site) }
    }
  }
}
