import Foundation
import MarbleTesting
import Marbles
import Synchronization
import TestSupport
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

  /// A stall — work the world handed to a thread outside it, not back within the stall timeout —
  /// inside `withKnownIssue` is a known issue too (it was reported at the `@Test` line).
  @Test(.virtualTime(stallTimeout: .milliseconds(300)))
  func aStallInsideWithKnownIssueIsAKnownIssue() async {
    let report = await Self.knownIssues {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
          Thread.sleep(forTimeInterval: 1)
          continuation.resume()
        }.start()
      }
    }
    #expect(
      report.hasPrefix("The test's world waited 0.3 seconds of real time at tick 0"), "\(report)")
  }

  /// The test's own task spinning — a loop of zero-length sleeps in the test itself — inside
  /// `withKnownIssue`: a known issue.
  @Test(.virtualTime(stepLimit: 20_000, stallTimeout: .seconds(3600)))
  func aLivelockTheTestSpinsInsideWithKnownIssueIsAKnownIssue() async {
    let report = await Self.knownIssues {
      while !Task.isCancelled { try? await Task.sleep(for: .zero) }
    }
    #expect(report.hasPrefix("The test's world is livelocked at tick 0"), "\(report)")
  }

  /// The give-ups above touch no other test and record no issue of no test: run in a process of
  /// their own, nothing but their known issues. On 2026-11-29's `main` the livelock the test spins
  /// recorded `✘ Test «unknown» … An API was misused` in every run: giving its work up, the world
  /// cancelled the test's own sleeping task from its loop's thread, and Swift Testing took that as
  /// a cancellation of the test from outside any test.
  @Test func theirGiveUpsTouchNothingElse() async throws {
    guard ProcessInfo.processInfo.environment["MARBLES_KNOWN_GIVE_UPS_CHILD"] == nil else { return }
    let output = try await runTestsInAChildProcess(
      filter: "KnownDeadlockInATraitTests/a", environment: ["MARBLES_KNOWN_GIVE_UPS_CHILD": "1"]
    ).output
    #expect(!output.contains("«unknown»"), "\(output.suffix(3000))")
    #expect(output.contains("passed after"), "\(output.suffix(3000))")
    #expect(!output.contains("✘"), "\(output.suffix(3000))")
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
