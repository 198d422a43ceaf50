/// Schedule 0: what became ready first runs first — Marbles' order without exploration.
@_spi(Exploration) public struct FIFOStrategy: ScheduleStrategy {
  @_spi(Exploration) public init() {}

  @_spi(Exploration) public mutating func choose(among candidates: [ScheduleCandidate]) -> Int { 0 }
}
