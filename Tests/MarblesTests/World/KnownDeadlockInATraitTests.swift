import MarbleTesting
import Marbles
import Synchronization
import Testing

/// A deadlock inside `withKnownIssue`, in a test whose world the `.virtualTime` trait opened, is a
/// known issue there — not an issue at the `@Test` line plus "Known issue was not recorded", as
/// on 2026-11-29's `main`, where the report was made in the trait's context, outside the
/// `withKnownIssue` the test's code was in when its world deadlocked.
@Suite struct KnownDeadlockInATraitTests {
  @Test(.virtualTime(stallTimeout: .seconds(3600)))
  func aDeadlockInsideWithKnownIssueIsAKnownIssue() async {
    let report = await Self.knownIssues { await Self.waitForAStreamNobodyFeeds() }
    #expect(report.hasPrefix("The test's world is deadlocked at tick 0"), "\(report)")
    // The deadlock was the world's: the test's own task goes on, uncancelled.
    #expect(!Task.isCancelled)
  }

  @Test(.virtualTime(stallTimeout: .seconds(3600)))
  func aNestedWorldsDeadlockInsideWithKnownIssueIsAKnownIssue() async {
    let report = await Self.knownIssues {
      await withVirtualTime { _ in await Self.waitForAStreamNobodyFeeds() }
    }
    #expect(report.hasPrefix("The test's world is deadlocked at tick 0"), "\(report)")
  }

  /// A livelock of another task while the test's own task waits for it — a task spinning on
  /// zero-length sleeps — is a known issue too. On 2026-11-29's `main` it was reported in the
  /// trait's context: at the `@Test` line, plus "Known issue was not recorded".
  @Test(.virtualTime(stepLimit: 20_000, stallTimeout: .seconds(3600)))
  func aLivelockInsideWithKnownIssueIsAKnownIssue() async {
    let report = await Self.knownIssues { await Self.waitForATaskThatSpins() }
    #expect(report.hasPrefix("The test's world is livelocked at tick 0"), "\(report)")
  }

  /// Waits for a task that sleeps for no time, over and over, until it is cancelled.
  static func waitForATaskThatSpins() async {
    let spinner = Task {
      while !Task.isCancelled { try? await Task.sleep(for: .zero) }
    }
    await spinner.value
  }

  /// Waits for a task that waits for a stream nobody feeds: a deadlock of the world.
  static func waitForAStreamNobodyFeeds() async {
    let consumer = Task { for await _ in AsyncStream<Int>.makeStream().stream {} }
    await consumer.value
  }

  /// Runs `body` inside `withKnownIssue`; returns the comments of the known issues it recorded.
  static func knownIssues(_ body: () async -> Void) async -> String {
    let reports = Mutex<[String]>([])
    await withKnownIssue {
      await body()
    } matching: { issue in
      reports.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    return reports.withLock { $0 }.joined(separator: "\n")
  }
}
