@_spi(Internals) import Signals

/// Where failures that no assertion carries go — a hang the scheduler prevented, reported when
/// the scheduler is released: the test framework, through the `Marbles` module's bridge
/// (``TestFramework``), else standard error (the failure also stays in
/// ``TestScheduler/failures``).
///
/// `MarbleTesting` imports no test framework; it finds `Marbles`' bridge by name the first time it
/// needs it, so nothing runs when the process loads. A test process without the bridge — a test
/// target that links `MarbleTesting` alone — would pass whatever failed: its first failure stops
/// the process, naming the product to link.
package enum FailureReporter {
  /// The name of what records failures on the current test, if the process has it.
  package static var current: String? {
    TestFramework.bridge == nil ? nil : "Marbles"
  }

  /// Prints a warning no test framework is there to record.
  static func warn(_ message: String, at site: SchedulerSite) {
    Platform.printError("\(site.filePath):\(site.line): warning: \(message)\n")
  }

  static func report(_ message: String, at site: SchedulerSite) {
    if let bridge = TestFramework.bridge {
      bridge.report(message, at: site)
      return
    }
    Platform.printError("\(site.filePath):\(site.line): error: \(message)\n")
    if TestFramework.processRunsTests { fatalError(withoutMarbles) }
  }

  /// Why a test process without `Marbles` stops at its first failure.
  package static let withoutMarbles = """
    Marbles: the failure above was found in a test process that does not link the `Marbles` \
    product, which carries MarbleTesting's failures to XCTest and Swift Testing: without it the \
    test would pass. Add `.product(name: "Marbles", package: "Marbles")` to the test target's \
    dependencies. The process stops here.
    """
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
