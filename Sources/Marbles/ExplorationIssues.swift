import MarbleTesting
import Synchronization
import Testing

/// The issues of one schedule under exploration, held instead of reported: the failing
/// schedule's are reported once, with the report.
final class IssueCapture: Sendable {
  @TaskLocal static var current: IssueCapture?

  private let issues = Mutex<(all: [String], held: Set<String>)>(([], []))

  func append(_ issue: String) { issues.withLock { $0.all.append(issue) } }

  /// Holds a Swift Testing issue: the schedule fails with it, and it is not reported.
  func hold(_ issue: Issue) {
    let line = ScheduleExploring.describe(issue)
    issues.withLock {
      $0.all.append(line)
      $0.held.insert(line)
    }
  }

  /// Whether `issue` is one ``hold(_:)`` held.
  func holds(_ issue: Issue) -> Bool {
    let line = ScheduleExploring.describe(issue)
    return issues.withLock { $0.held.contains(line) }
  }

  var all: [String] { issues.withLock { $0.all } }
}

/// Warnings of the failing schedule's last run that are not the body's — what record mode did —
/// held while its issues pass through a handler that drops warnings (the body's were reported
/// by the first run), and reported after it.
final class DeferredWarnings: Sendable {
  @TaskLocal static var current: DeferredWarnings?

  private let warnings = Mutex<[(message: String, site: SourceSite)]>([])

  func append(_ message: String, at site: SourceSite) {
    warnings.withLock { $0.append((message, site)) }
  }

  /// Reports the warnings held, each at its place.
  func report() {
    for warning in warnings.withLock({ $0 }) { warning.site.warn(warning.message) }
  }
}

/// The issues of the failing schedule's last run, reported where they happen: the first carries
/// the exploration's report, the others point to it.
final class ReportedIssues: Sendable {
  private let report: String
  private let state = Mutex((count: 0, failing: Set<String>()))

  init(report: String) { self.report = report }

  /// How many failing issues were reported.
  var reported: Int { state.withLock { $0.count } }

  /// Marks `issue` as one of the schedule's failures: an issue of severity `.error` that no
  /// `withKnownIssue` inside the body took.
  func mark(_ issue: Issue) {
    guard issue.severity >= .error else { return }
    let line = ScheduleExploring.describe(issue)
    state.withLock { _ = $0.failing.insert(line) }
  }

  /// `issue` with the report if it is one of the schedule's failures; `nil` for what the first
  /// run reported already (warnings, the issues the body's own `withKnownIssue` took).
  func report(_ issue: Issue) -> Issue? {
    let line = ScheduleExploring.describe(issue)
    let isFirst: Bool? = state.withLock {
      guard $0.failing.contains(line) else { return nil }
      $0.count += 1
      return $0.count == 1
    }
    guard let isFirst else { return nil }
    var issue = issue
    issue.comments.append(
      Comment(
        rawValue: isFirst
          ? report : "(in the schedule that failed; its report is with this test's first issue)"))
    return issue
  }
}
