@_spi(Internals) import Signals
import Synchronization

/// Where failures that no assertion carries go — a hang the scheduler prevented, reported when
/// the scheduler is released: the registered reporter, else standard error (the failure also stays
/// in ``TestScheduler/failures``).
///
/// `MarbleTesting` imports no test framework. The seam is ``register(_:report:)``: the `Marbles`
/// module registers its reporter (Swift Testing's `Issue.record`, else `XCTFail`) when the process
/// loads it, and again whenever one of its assertions reports.
package enum FailureReporter {
  /// A reporter: its name, and what reports `message` on the current test, at `site`.
  private struct Registration: Sendable {
    var name: String
    var report: @Sendable (_ message: String, _ site: SchedulerSite) -> Void
  }

  private static let registered = Mutex<Registration?>(nil)

  /// Makes `report` the way failures no assertion carries are reported (the last one registered
  /// wins).
  ///
  /// - Parameters:
  ///   - name: The reporter's name, for diagnostics.
  ///   - report: Reports a message on the current test, at a scheduler's site.
  package static func register(
    _ name: String, report: @escaping @Sendable (_ message: String, _ site: SchedulerSite) -> Void
  ) {
    registered.withLock { $0 = Registration(name: name, report: report) }
  }

  /// The registered reporter's name, if one is registered.
  package static var current: String? {
    registered.withLock { $0?.name }
  }

  /// Prints a warning no test framework is there to record.
  static func warn(_ message: String, at site: SchedulerSite) {
    Platform.printError("\(site.filePath):\(site.line): warning: \(message)\n")
  }

  static func report(_ message: String, at site: SchedulerSite) {
    if let registration = registered.withLock({ $0 }) {
      registration.report(message, site)
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
