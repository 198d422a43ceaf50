/// Each choice uniformly at random among what is ready: close to PCT on most bugs (SCTBench),
/// and the best at bugs that need many small departures.
package struct RandomWalkStrategy: ScheduleStrategy {
  private var random: ScheduleRandom

  package init(seed: UInt64) {
    random = ScheduleRandom(seed: seed)
  }

  package mutating func choose(among candidates: [ScheduleCandidate]) -> Int {
    Int.random(in: 0..<candidates.count, using: &random)
  }
}
