/// One job a schedule may run next: whose it is, and where it runs.
package struct ScheduleCandidate: Sendable, Equatable {
  /// The job's task, or `nil` for a job that is not a task's (an actor's).
  package var task: UInt64?
  /// Whether it runs on the main actor.
  package var isMain: Bool

  package init(task: UInt64?, isMain: Bool) {
    self.task = task
    self.isMain = isMain
  }
}

/// How a schedule picks what runs next at a choice point: where two or more jobs are ready at the
/// current tick and the runtime could run any of them first (see ``ScheduleRun``).
///
/// One method, one file per strategy (Shuttle's `Scheduler` is the model): ``FIFOStrategy``,
/// ``RandomWalkStrategy``, ``PCTStrategy``, ``ReplayStrategy``.
package protocol ScheduleStrategy: Sendable {
  /// Picks one of `candidates` — two or more, in the order they became ready, so 0 is the FIFO
  /// pick — and returns its index.
  mutating func choose(among candidates: [ScheduleCandidate]) -> Int
}

/// A small, fast, seedable generator (SplitMix64), so that a seed gives the same schedules on
/// every platform and toolchain.
package struct ScheduleRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  package init(seed: UInt64) {
    state = seed
  }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
