/// Schedule 0: what became ready first runs first — Marbles' order without exploration.
package struct FIFOStrategy: ScheduleStrategy {
  package init() {}

  package mutating func choose(among candidates: [ScheduleCandidate]) -> Int { 0 }
}
