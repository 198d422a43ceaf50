/// Runs the choices a replay token holds, and notes where the run no longer matches them.
@_spi(Exploration) public struct ReplayStrategy: ScheduleStrategy {
  private let departures: [Int: ScheduleRun.Choice]
  private var choice = 0
  /// The first choice point where the recorded choice is not possible any more.
  @_spi(Exploration) public private(set) var divergence: Int?

  @_spi(Exploration) public init(_ token: ScheduleToken) {
    departures = Dictionary(uniqueKeysWithValues: token.departures.map { ($0.point, $0.choice) })
  }

  @_spi(Exploration) public mutating func choose(among candidates: [ScheduleCandidate]) -> Int {
    defer { choice += 1 }
    guard let recorded = departures[choice] else { return 0 }
    guard recorded.count == candidates.count, recorded.chosen < candidates.count else {
      if divergence == nil { divergence = choice }
      return 0
    }
    return recorded.chosen
  }
}
