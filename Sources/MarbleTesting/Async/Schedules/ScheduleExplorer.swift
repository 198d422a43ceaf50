/// Runs a test under many schedules: schedule 0 in FIFO order; then, level by level while a whole
/// level fits in the count, every schedule one departure from FIFO, then every one two departures
/// away (``BoundedExhaustive``) — and on, at any number of departures, when FIFO's choices allow
/// no more orders than the count (a small tree); a level with no schedule in it means every
/// schedule of the test has run — the whole tree — and the exploration stops there. Otherwise, for what is left of the
/// count, a portfolio of strategies — random walk, PCT depth 1, 2 and 3 in turn, each from a
/// seed derived from the exploration's — until one fails; then shrinks the failing choices towards
/// FIFO (the fewest departures that still fail: `ScheduleExplorer+Shrinking.swift`). A replay runs
/// one token's choices once.
package enum ScheduleExplorer {
  /// What an exploration found.
  package struct Outcome: Sendable {
    /// How many schedules ran (not counting the shrinking's runs).
    package var schedulesRun: Int
    /// The most choice points one schedule had.
    package var choicePoints: Int
    /// The seed the schedules came from.
    package var seed: UInt64
    /// The schedule that failed, if one did.
    package var failure: Failure?
    /// For a replay: where the run stopped following its token, if it did.
    package var divergence: ReplayStrategy.Divergence? = nil
    /// For a replay: whether the run matched its token's run to the end, after its last departure
    /// too.
    package var matchesWholly = false
    /// Whether every schedule of the test ran: the tree of its choices was run whole.
    package var isExhaustive = false
    /// How many departures from FIFO every schedule within which ran (0: none beyond FIFO).
    package var departuresCovered = 0
    /// Whether a scheduler followed the schedules: `false` when the body made none, and nothing
    /// was explored (only schedule 0 ran).
    package var isFollowed = true
  }

  /// A schedule that failed.
  package struct Failure: Sendable {
    /// Its number: 0 is FIFO.
    package var schedule: Int
    /// The strategy that made it ("FIFO", "random walk", "PCT depth 2", "replay").
    package var strategy: String
    /// Its choices, shrunk: run them again with a ``ReplayStrategy``.
    package var token: ScheduleToken
    /// For a replay: where the run stopped matching its token, if it did.
    package var divergence: ReplayStrategy.Divergence?
    /// Whether the shrinking stopped at its time budget, before it had tried every smaller
    /// schedule: the token may have more departures than the failure needs.
    package var isShrinkingCut = false
  }

  /// The strategy of schedule `number` (1 or more) of an exploration from `seed`, and its name.
  package static func strategy(
    forSchedule number: Int, seed: UInt64, length: Int
  ) -> (strategy: any ScheduleStrategy, name: String) {
    var mixer = ScheduleRandom(seed: seed ^ (UInt64(number) &* 0x9E37_79B9_7F4A_7C15))
    let derived = mixer.next()
    switch (number - 1) % 4 {
    case 0: return (RandomWalkStrategy(seed: derived), "random walk")
    case let depth:
      return (PCTStrategy(depth: depth, length: length, seed: derived), "PCT depth \(depth)")
    }
  }

  /// Runs `run` — the test's body under the run it is given, `true` when it passed — once per
  /// schedule, up to `count`, stopping at the first failure; or, with `replay`, once under its
  /// choices.
  package static func explore(
    count: Int, seed: UInt64, replay: ScheduleToken? = nil,
    shrinkingBudget: Duration = shrinkingTimeBudget,
    isolation: isolated (any Actor)? = #isolation, _ run: (ScheduleRun) async -> Bool
  ) async -> Outcome {
    await ExplorationTurns.inTurn {
      await explore(
        count: count, seed: seed, replay: replay, shrinkingBudget: shrinkingBudget, inTurn: run)
    }
  }

  /// ``explore(count:seed:replay:shrinkingBudget:isolation:_:)`` in the process's exploration
  /// turn.
  private static func explore(
    count: Int, seed: UInt64, replay: ScheduleToken?, shrinkingBudget: Duration,
    isolation: isolated (any Actor)? = #isolation, inTurn run: (ScheduleRun) async -> Bool
  ) async -> Outcome {
    if let replay {
      let schedule = ScheduleRun(ReplayStrategy(replay))
      let passed = await run(schedule)
      let divergence = schedule.divergence
      return Outcome(
        schedulesRun: 1, choicePoints: schedule.choices.count, seed: seed,
        failure: passed
          ? nil
          : Failure(
            schedule: 0, strategy: "replay", token: schedule.token, divergence: divergence),
        divergence: divergence, matchesWholly: schedule.matchesItsTokenWholly,
        isFollowed: schedule.isFollowed)
    }
    var outcome = Outcome(schedulesRun: 0, choicePoints: 0, seed: seed, failure: nil)
    // Schedule 0 (FIFO), then — when every schedule within two departures fits in the count —
    // all of them.
    let fifo = ScheduleRun(FIFOStrategy())
    outcome.schedulesRun = 1
    outcome.choicePoints = fifo.choices.count
    guard await run(fifo) else {
      outcome.failure = Failure(
        schedule: 0, strategy: "FIFO", token: fifo.token, divergence: nil)
      return outcome
    }
    outcome.choicePoints = fifo.choices.count
    // A body that no scheduler followed ran its one order, whichever the runtime chose: there is
    // nothing to explore, and no other schedule would run differently.
    guard fifo.isFollowed else {
      outcome.isFollowed = false
      return outcome
    }
    // Nothing was ever ready beside something else: one order, and nothing to explore.
    guard !fifo.choices.isEmpty else { return outcome }
    // Level by level — one departure, then two — while a whole level fits in what is left; the
    // rest of the count goes to the portfolio, whose random choices find the bugs that need many
    // departures. A level with no schedule in it, though, means every schedule of the test has
    // run: the tree is whole, and nothing is left to explore.
    // A small tree — no run so far had choices allowing more than `count` orders (the product of
    // each choice's options) — is run whole, level after level at any number of departures,
    // until a level is empty: every order ran once. A larger one gets two levels, and the
    // portfolio the rest.
    func orders(_ choices: [ScheduleRun.Choice]) -> Int {
      choices.reduce(1) { product, choice in
        product > count ? product : product * max(1, choice.count)
      }
    }
    var largestTree = orders(fifo.choices)
    var level: [([ScheduleToken.Departure], [ScheduleRun.Choice])] = [([], fifo.choices)]
    var depth = 1
    while true {
      // NB: counted before it is made: a level that does not fit — often tens of thousands of
      // schedules at two departures — is never built (it was 5% of a small test's exploration).
      let size = level.reduce(0) { $0 + BoundedExhaustive.extensionCount(of: $1.0, made: $1.1) }
      guard size > 0 else {
        outcome.isExhaustive = true
        return outcome
      }
      guard depth <= 2 || largestTree <= count, outcome.schedulesRun + size <= count
      else { break }
      let schedules = level.flatMap { BoundedExhaustive.extensions(of: $0.0, made: $0.1) }
      level = []
      for departures in schedules {
        let schedule = ScheduleRun(BoundedExhaustive.strategy(departures))
        let passed = await run(schedule)
        outcome.schedulesRun += 1
        outcome.choicePoints = max(outcome.choicePoints, schedule.choices.count)
        guard passed else {
          // Already the fewest: every schedule with fewer departures ran, level by level, and
          // passed.
          outcome.failure = Failure(
            schedule: outcome.schedulesRun - 1,
            strategy: "every order within \(depth) departure\(depth == 1 ? "" : "s")",
            token: schedule.token, divergence: nil)
          return outcome
        }
        largestTree = max(largestTree, orders(schedule.choices))
        level.append((departures, schedule.choices))
      }
      outcome.departuresCovered = depth
      depth += 1
    }
    let length = max(1, fifo.choices.count)
    for number in outcome.schedulesRun..<max(outcome.schedulesRun, count) {
      let (strategy, name) = self.strategy(forSchedule: number, seed: seed, length: length)
      let schedule = ScheduleRun(strategy)
      let passed = await run(schedule)
      outcome.schedulesRun += 1
      outcome.choicePoints = max(outcome.choicePoints, schedule.choices.count)
      guard passed else {
        let (token, isCut) = await shrink(schedule.token, within: shrinkingBudget, run)
        outcome.failure = Failure(
          schedule: number, strategy: name, token: token, divergence: nil, isShrinkingCut: isCut)
        return outcome
      }
    }
    return outcome
  }
}
