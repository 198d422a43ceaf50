import Foundation
import MarbleTesting
import Marbles
import TestSupport
import Testing

/// `@Suite(.exploringSchedules(n))` explores every test of the suite (issue 47.6): a test with no
/// trait of its own, whose withdrawals race, fails in schedule 1 with the report; a test with a
/// trait of its own is explored by its own, once, with no hang from the two.
@Suite struct SuiteExplorationTests {
  @Test func everyTestOfTheSuiteIsExplored() async throws {
    let output = try await runTestsInAChildProcess(
      filter: "SuiteExplorationFixture", environment: ["MARBLES_SUITE_EXPLORATION_CHILD": "1"]
    ).output
    #expect(
      output.contains(
        "Test twoWithdrawalsInAnExploredSuite() recorded an issue at RacyApp.swift:28:3"),
      "\(output.suffix(3000))")
    #expect(
      output.contains("schedule 1 of 100 (every order within 1 departure, seed 0x2a) failed"),
      "\(output.suffix(3000))")
    #expect(
      output.contains("Test aTestWithItsOwnTraitIsExploredByIt() passed"),
      "\(output.suffix(3000))")
    #expect(output.contains("Test run with 2 tests in 1 suite failed"), "\(output.suffix(3000))")
  }
}

/// Run by `SuiteExplorationTests` in a process of its own (skipped in the suite's own run).
@Suite(
  .exploringSchedules(100, seed: 42),
  .enabled(if: ProcessInfo.processInfo.environment["MARBLES_SUITE_EXPLORATION_CHILD"] != nil))
struct SuiteExplorationFixture {
  @Test func twoWithdrawalsInAnExploredSuite() async { await twoWithdrawals() }

  /// Its own trait explores it, with its own count: one schedule, FIFO, which passes.
  @Test(.exploringSchedules(1, seed: 42)) func aTestWithItsOwnTraitIsExploredByIt() async {
    await twoWithdrawals()
  }
}
