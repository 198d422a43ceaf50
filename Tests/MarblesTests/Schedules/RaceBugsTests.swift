import MarbleTesting
import RaceBugs
import Testing

/// The ten race bugs (`Tests/RaceBugs`): each passes in FIFO order, is found by the default
/// exploration within 100 schedules from three seeds, shrinks to the fewest departures that make
/// it fail (which the search for them proves: every schedule with fewer passes), and its token
/// replays the failure, 1 time out of 1.
@Suite struct RaceBugsTests {
  static func run(_ schedule: ScheduleRun, _ body: () async -> Bool) async -> Bool {
    await ScheduleRun.$current.withValue(schedule) { await body() }
  }

  @Test(arguments: RaceBugs.names)
  func passesInFIFOOrder(_ name: String) async {
    #expect(await Self.run(ScheduleRun(FIFOStrategy()), RaceBugs.named(name).program))
  }

  @Test(arguments: RaceBugs.names, [1, 42, 0xBEEF] as [UInt64])
  func isFoundWithin100SchedulesShrunkAndReplayed(_ name: String, _ seed: UInt64) async {
    let bug = RaceBugs.named(name)
    let outcome = await ScheduleExplorer.explore(count: 100, seed: seed) { schedule in
      await Self.run(schedule, bug.program)
    }
    guard let failure = outcome.failure else {
      Issue.record("\(name): not found in 100 schedules from seed \(seed)")
      return
    }
    #expect(failure.schedule > 0)
    #expect(failure.token.departures.count == bug.fewestDepartures, "\(failure.token)")
    // The token reads back, and its replay fails, 1 time out of 1.
    #expect(ScheduleToken(failure.token.description) == failure.token)
    let replay = await ScheduleExplorer.explore(count: 1, seed: 0, replay: failure.token) {
      schedule in await Self.run(schedule, bug.program)
    }
    #expect(replay.failure != nil)
    #expect(replay.failure?.divergence == nil)
  }

  /// Shrinking has a budget of real time (each of its runs is a whole test): spent, it keeps the
  /// failing schedule it has and says so. (On 2026-11-28's `main` it had only a budget of runs,
  /// 10,000 whole tests.)
  @Test func shrinkingStopsAtItsTimeBudgetAndSaysSo() async throws {
    let bug = RaceBugs.named("lost wake-up")
    let cut = await ScheduleExplorer.explore(count: 100, seed: 42, shrinkingBudget: .zero) {
      schedule in await Self.run(schedule, bug.program)
    }
    let failure = try #require(cut.failure)
    #expect(failure.isShrinkingCut)
    #expect(failure.token.departures.count > bug.fewestDepartures)
    let whole = await ScheduleExplorer.explore(count: 100, seed: 42) { schedule in
      await Self.run(schedule, bug.program)
    }
    #expect(whole.failure?.isShrinkingCut == false)
    #expect(whole.failure?.token.departures.count == bug.fewestDepartures)
  }

  @Test(arguments: RaceBugs.names)
  func needsAsManyDeparturesAsItSays(_ name: String) async {
    let bug = RaceBugs.named(name)
    let search = await ScheduleExplorer.fewestDepartures { schedule in
      await Self.run(schedule, bug.program)
    }
    // Every schedule with fewer departures ran and passed; one with that many fails.
    #expect(search.passingBelow == bug.fewestDepartures)
    #expect(search.failing?.departures.count == bug.fewestDepartures)
    // Within a limit below that, none fails.
    let limit = bug.fewestDepartures - 1
    let withinLimit = await ScheduleExplorer.fewestDepartures(upTo: limit) { schedule in
      await Self.run(schedule, bug.program)
    }
    #expect(withinLimit.failing == nil)
    #expect(withinLimit.passingBelow == limit + 1)
  }
}
