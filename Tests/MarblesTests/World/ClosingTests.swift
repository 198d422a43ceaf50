import MarbleTesting
import Marbles
import TestSupport
import Testing

/// The close: a world runs what is ready before it closes; what still waits is cancelled and
/// named in a warning — each task and what it waits for — never silently.
@Suite(.takesIssues) struct ClosingTests {
  /// The warnings a world opened by `body` leaves as it closes.
  func warnings(_ body: @escaping () async -> Void) async -> [String] {
    await takingIssues {
      await withVirtualTime { _ in await body() }
    }.filter { $0.severity == .warning }.map(\.commentText)
  }

  @Test func aTaskThatWaitsForEverIsNamed() async {
    let warnings = await warnings {
      Task { await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in } }
      try? await Task.sleep(for: .seconds(1))
    }
    #expect(
      warnings == [
        """
        The test's world closed with work still waiting, which was cancelled:
          - task 1 (started in ClosingTests.aTaskThatWaitsForEverIsNamed()) waits in \
        ClosingTests.aTaskThatWaitsForEverIsNamed() for a continuation that nothing in the world \
        resumes (withCheckedContinuation, an AsyncStream's next() whose producer is done or waits too)
        """
      ])
  }

  @Test func aSleepingTaskIsNamedWithItsTick() async {
    let warnings = await warnings {
      Task { try? await Task.sleep(for: .seconds(3)) }
      try? await Task.sleep(for: .seconds(1))
    }
    #expect(
      warnings == [
        """
        The test's world closed with work still waiting, which was cancelled:
          - task 1 (started in ClosingTests.aSleepingTaskIsNamedWithItsTick()) sleeps until tick \
        3000
        """
      ])
  }

  /// A timeout task cancelled as the test ends has a job ready (its cancelled sleep's end): the
  /// world runs it before it closes, and nothing is left to name.
  @Test func workThatIsReadyRunsBeforeTheClose() async {
    let finished = Log()
    let warnings = await warnings {
      let timeout = Task {
        try? await Task.sleep(for: .seconds(5))
        finished.append("the timeout task ended")
      }
      try? await Task.sleep(for: .seconds(1))
      timeout.cancel()
    }
    #expect(warnings == [])
    #expect(finished.all == ["the timeout task ended"])
  }
}
