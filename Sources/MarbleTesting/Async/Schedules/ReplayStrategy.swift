/// Runs the choices a replay token holds, and notes where the run no longer matches them.
package struct ReplayStrategy: ScheduleStrategy {
  private let departures: [Int: ScheduleRun.Choice]
  private var choice = 0
  /// The first choice point where the recorded choice is not possible any more.
  package private(set) var divergence: Int?

  package init(_ token: ScheduleToken) {
    departures = Dictionary(uniqueKeysWithValues: token.departures.map { ($0.point, $0.choice) })
  }

  package mutating func choose(among candidates: [ScheduleCandidate]) -> Int {
    defer { choice += 1 }
    guard let recorded = departures[choice] else { return 0 }
    guard recorded.count == candidates.count, recorded.chosen < candidates.count else {
      if divergence == nil { divergence = choice }
      return 0
    }
    return recorded.chosen
  }
}
