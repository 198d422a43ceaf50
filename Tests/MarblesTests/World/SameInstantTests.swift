import MarbleTesting
import Marbles
import Testing

/// The same instant: the test's own wake-up at tick T resumes after everything else due at T has
/// run and settled, so a test that sleeps exactly to an app's deadline sees the app's work done.
@Suite(.virtualTime) struct SameInstantTests {
  // A test that sleeps to an app's deadline: ArticleSnippetsTests' theIndicatorHidesAfterThreeSeconds.

  @Test func workThatTheAppsWorkStartsAtThatInstantRunsFirstToo() async throws {
    let log = Log()
    Task {
      try? await Task.sleep(for: .seconds(2))
      log.append("toast hides")
      // A follow-up at the same instant: a zero-length sleep, and a task that hops once more.
      try? await Task.sleep(for: .zero)
      await Task {
        log.append("toast's follow-up")
      }.value
    }
    try await Task.sleep(for: .seconds(2))
    log.append("the test")
    #expect(log.all == ["toast hides", "toast's follow-up", "the test"])
  }

  @Test func anActionOfTheSchedulerAtThatInstantRunsFirst() async throws {
    let scheduler = try #require(TestScheduler.current)
    let fired = Log()
    // Scheduled after the test's sleep began, for the same tick.
    Task {
      try? await Task.sleep(for: .milliseconds(500))
      scheduler.schedule(at: 1000) { fired.append("fired") }
    }
    try await Task.sleep(for: .seconds(1))
    #expect(fired.all == ["fired"])
    #expect(scheduler.now == 1000)
  }

  /// `advance(by: 0)` keeps its meaning: it runs what is due now, and no more.
  @Test func advanceByZeroKeepsItsMeaning() async throws {
    let scheduler = try #require(TestScheduler.current)
    let ran = Log()
    scheduler.schedule(at: 0) { ran.append("0") }
    scheduler.schedule(at: 1) { ran.append("1") }
    scheduler.advance(by: 0)
    #expect(ran.all == ["0"])
    #expect(scheduler.now == 0)
  }
}
