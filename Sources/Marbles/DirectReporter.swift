import MarbleTesting

/// Reports on the test from wherever it is called: XCTest records a failure for the running test
/// case from any thread; outside a Swift Testing test's task, an issue goes to both frameworks.
struct DirectReporter: WorldReporter {
  func report(_ message: String, at site: SchedulerSite) {
    reportIssue(
      message, fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
  }

  func report(_ message: String, at site: SchedulerSite, asIfBy task: WaitingTask) {
    TaskLocals.withBindings(of: task) { report(message, at: site) }
  }

  func warn(_ message: String, at site: SchedulerSite) {
    reportWarning(
      message, fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
  }

  func run(_ work: @escaping @Sendable () -> Void) {
    work()
  }

  func finish() async {}
  func finishSoon() {}
}

extension DirectReporter {
  func deliver(_ text: String, at site: SchedulerSite, isWarning: Bool) {
    if isWarning { warn(text, at: site) } else { report(text, at: site) }
  }
}
