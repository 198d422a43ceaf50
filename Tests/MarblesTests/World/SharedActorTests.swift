import Foundation
import MarbleTesting
import Marbles
import Synchronization
import Testing

/// An actor instance two tests share (a `static let shared`), each in a world of its own.
actor SharedService {
  static let shared = SharedService()
  /// The instance ``SharedActorExplorationTests``' two explorations share. Not ``shared``: a plain
  /// test using an actor beside an exploration can change the exploration's choice points (a
  /// documented limit of exploring), and the plain tests of ``SharedActorTests`` use that one.
  static let sharedByExplorations = SharedService()

  /// Whether `hold(for:)` is running: read by the tests from outside the actor.
  nonisolated let isHeld = Atomic(false)
  /// Set by the test once it saw the actor held: the hold's real time runs from then.
  nonisolated let isSeenHeld = Atomic(false)
  private var calls = 0

  /// Sleeps `latency` on the caller's clock, and echoes `name`: the actor is free while it sleeps.
  func echo(_ name: String, after latency: Duration) async throws -> String {
    calls += 1
    try await Task.sleep(for: latency)
    return name
  }

  /// Holds the actor — a blocking job — until the test has seen it held, then for `seconds` of
  /// real time more. (Holding it for `seconds` from its start, a busy parallel run's test could
  /// miss the hold, and wait for it for ever.)
  func hold(for seconds: TimeInterval) {
    isHeld.store(true, ordering: .sequentiallyConsistent)
    while !isSeenHeld.load(ordering: .sequentiallyConsistent) {
      Thread.sleep(forTimeInterval: 0.001)
    }
    Thread.sleep(forTimeInterval: seconds)
    isSeenHeld.store(false, ordering: .sequentiallyConsistent)
    isHeld.store(false, ordering: .sequentiallyConsistent)
  }

  func quick() -> Int { 7 }
}

/// Two kinds of test that share an actor run side by side — 20 of each under `--parallel` — and
/// each gets its own result, at its own virtual time, every time.
@Suite struct SharedActorTests {
  @Test(arguments: 0..<20)
  func oneWorldUsesTheSharedActor(_ run: Int) async throws {
    let (value, now) = try await withVirtualTime { scheduler in
      let value = try await SharedService.shared.echo("one \(run)", after: .seconds(2))
      return (value, scheduler.now)
    }
    #expect(value == "one \(run)")
    #expect(now == 2000)
  }

  @Test(arguments: 0..<20)
  func anotherWorldUsesItToo(_ run: Int) async throws {
    let (first, second, now) = try await withVirtualTime { scheduler in
      let first = try await SharedService.shared.echo("other \(run)", after: .milliseconds(300))
      let second = try await SharedService.shared.echo("again \(run)", after: .milliseconds(700))
      return (first, second, scheduler.now)
    }
    #expect([first, second] == ["other \(run)", "again \(run)"])
    #expect(now == 1000)
  }

  /// A world whose test waits for the shared actor while another world's job holds it longer
  /// than the stall timeout names that wait.
  @Test func aWaitBehindAnotherWorldsJobIsNamed() async {
    let reports = Mutex<[String]>([])
    await withKnownIssue {
      async let holder: Void = withVirtualTime { _ in await SharedService.shared.hold(for: 1) }
      while !SharedService.shared.isHeld.load(ordering: .sequentiallyConsistent) {
        try? await Task.sleep(for: .milliseconds(5))
      }
      SharedService.shared.isSeenHeld.store(true, ordering: .sequentiallyConsistent)
      let value = await withVirtualTime(stallTimeout: .milliseconds(300)) { _ in
        await SharedService.shared.quick()
      }
      await holder
      #expect(value == 7, "the value arrives once the other job lets go")
    } matching: { issue in
      reports.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    let report = reports.withLock { $0 }.joined(separator: "\n")
    #expect(
      report.contains(
        "the test waits for its turn on an actor or the main actor, which runs work outside the "
          + "test's world"), "\(report)")
  }
}
