/// Shrinking a failing schedule towards FIFO: the fewest departures that still fail.
///
/// The search runs every schedule one departure from FIFO, then every one two departures away,
/// and so on (``BoundedExhaustive``), so the first that fails has as few departures as any failing
/// schedule can. Few tests have many choice points, so the levels stay small — a bug between two
/// tasks that takes seven departures is found in about 180 runs — and a budget of runs bounds the
/// rest; past it, the shrinking falls back to subsets of the failing schedule's own departures,
/// then drops them one at a time while the run still fails. A budget of real time bounds it all
/// (each run is a whole test): past it, the shrinking keeps what it has and says so.
extension ScheduleExplorer {
  /// How many runs the search for the fewest departures may take in all.
  package static let fewestDeparturesBudget = 10_000
  /// How long, in real time, shrinking a failing schedule may take.
  package static let shrinkingTimeBudget = Duration.seconds(20)

  /// What a search for the fewest departures found.
  package struct DepartureSearch: Sendable {
    /// A failing schedule with as few departures as any (none with fewer fails), if one was found.
    package var failing: ScheduleToken?
    /// Every schedule with fewer departures than this was run and passed: the levels searched
    /// whole. `Int.max` when the levels ran out: every schedule of the test was run.
    package var passingBelow: Int
  }

  /// Every schedule one departure from FIFO — at every choice point, every other pick — then
  /// every one two departures away (the second after the first, in the run the first makes), and
  /// so on up to `limit` departures, until one fails, the runs reach `budget`, or there are no
  /// more schedules.
  package static func fewestDepartures(
    upTo limit: Int = .max, budget: Int = fewestDeparturesBudget,
    until deadline: ContinuousClock.Instant? = nil, isolation: isolated (any Actor)? = #isolation,
    _ run: (ScheduleRun) async -> Bool
  ) async -> DepartureSearch {
    let fifo = ScheduleRun(FIFOStrategy())
    guard await run(fifo) else { return DepartureSearch(failing: fifo.token, passingBelow: 0) }
    var level: [([ScheduleToken.Departure], [ScheduleRun.Choice])] = [([], fifo.choices)]
    var runs = 0
    var depth = 1
    while depth <= limit {
      var next: [([ScheduleToken.Departure], [ScheduleRun.Choice])] = []
      for (departures, made) in level {
        for extended in BoundedExhaustive.extensions(of: departures, made: made) {
          guard runs < budget, !isPast(deadline) else {
            return DepartureSearch(failing: nil, passingBelow: depth)
          }
          runs += 1
          let schedule = ScheduleRun(BoundedExhaustive.strategy(extended))
          if await !run(schedule) {
            return DepartureSearch(failing: schedule.token, passingBelow: depth)
          }
          next.append((extended, schedule.choices))
        }
      }
      guard !next.isEmpty else { return DepartureSearch(failing: nil, passingBelow: .max) }
      level = next
      depth += 1
    }
    return DepartureSearch(failing: nil, passingBelow: depth)
  }

  /// Every way to take `size` of `count` indices, in order.
  static func combinations(of count: Int, taking size: Int) -> [[Int]] {
    guard size > 0 else { return [[]] }
    guard size <= count else { return [] }
    return (0...(count - size)).flatMap { first in
      combinations(of: count - first - 1, taking: size - 1).map { rest in
        [first] + rest.map { $0 + first + 1 }
      }
    }
  }

  /// Whether real time is past `deadline`.
  static func isPast(_ deadline: ContinuousClock.Instant?) -> Bool {
    guard let deadline else { return false }
    return RealTime.reading { ContinuousClock.now } >= deadline
  }

  /// The failing `token` with as few departures from FIFO as still fail: every schedule with
  /// fewer departures, level by level (``fewestDepartures(upTo:budget:until:_:)``); when that
  /// search spends its budget, subsets of one, two, then three of the token's departures, then,
  /// from the whole token, each departure dropped in turn and kept out when the run still fails,
  /// until no single one can go — all within `budget` of real time.
  ///
  /// - Returns: The shrunk token, and whether the time budget cut the shrinking short.
  static func shrink(
    _ token: ScheduleToken, within budget: Duration,
    isolation: isolated (any Actor)? = #isolation, _ run: (ScheduleRun) async -> Bool
  ) async -> (token: ScheduleToken, isCut: Bool) {
    let deadline = RealTime.reading { ContinuousClock.now } + budget
    let shrunk = await shrink(token, until: deadline, run)
    return (shrunk, isPast(deadline) && shrunk.departures.count > 1)
  }

  private static func shrink(
    _ token: ScheduleToken, until deadline: ContinuousClock.Instant,
    isolation: isolated (any Actor)? = #isolation, _ run: (ScheduleRun) async -> Bool
  ) async -> ScheduleToken {
    let departures = token.departures
    guard departures.count > 1 else { return token }
    let search = await fewestDepartures(upTo: departures.count - 1, until: deadline, run)
    if let found = search.failing { return found }
    // Every schedule with fewer departures passed: the token has as few as any.
    if search.passingBelow >= departures.count { return token }
    /// The token of what a replay of `kept` chose, if it fails.
    func failing(_ kept: [ScheduleToken.Departure]) async -> ScheduleToken? {
      let schedule = ScheduleRun(BoundedExhaustive.strategy(kept))
      return await run(schedule) ? nil : schedule.token
    }
    // Subsets of one, two, then three departures, while there are few enough to try them all
    // (not the sizes whose every schedule the search ran).
    for size in 1...3 where size < departures.count && size >= search.passingBelow {
      guard departures.count <= (size == 3 ? 16 : 64) else { break }
      for subset in combinations(of: departures.count, taking: size) {
        if isPast(deadline) { return token }
        if let found = await failing(subset.map { departures[$0] }) { return found }
      }
    }
    var current = token
    var changed = true
    while changed, !current.departures.isEmpty, !isPast(deadline) {
      changed = false
      for index in current.departures.indices.reversed() {
        var kept = current.departures
        kept.remove(at: index)
        if let found = await failing(kept) {
          // What this run actually chose, which a replay of it reproduces.
          current = found
          changed = true
          break
        }
      }
    }
    return current
  }
}
