/// One step a schedule may run next — a ready job, a sleeping task's wake-up, or the scheduler's
/// first action due now: whose it is, where it runs, and who it is in every run of the test.
package struct ScheduleCandidate: Sendable, Equatable {
  /// Who a candidate is, the same in every run of the same test: what a token records of each
  /// choice, so that a replay can tell whether it is offered the same steps.
  package enum Identity: Sendable, Hashable, CustomStringConvertible {
    /// A job or the wake-up of the task with this number in its world (creation order, from 1).
    case task(Int)
    /// The scheduler's action with this sequence number (the order they were scheduled in).
    case action(Int)
    /// A job that is no numbered task's (an actor's), by its place among such candidates.
    case job(Int)

    package var description: String {
      switch self {
      case .task(let number): "task \(number)"
      case .action(let sequence): "action \(sequence)"
      case .job(let place): "actor job \(place + 1)"
      }
    }

    /// As a token writes it: `t`, `a` or `j`, then the number in base 36.
    var code: String {
      switch self {
      case .task(let number): "t" + String(number, radix: 36)
      case .action(let sequence): "a" + String(sequence, radix: 36)
      case .job(let place): "j" + String(place, radix: 36)
      }
    }

    /// Reads ``code``.
    init?(code: Substring) {
      guard let kind = code.first, let number = Int(code.dropFirst(), radix: 36), number >= 0
      else { return nil }
      switch kind {
      case "t": self = .task(number)
      case "a": self = .action(number)
      case "j": self = .job(number)
      default: return nil
      }
    }
  }

  /// The job's task, or `nil` for a job that is not a task's (an actor's) and for an action.
  package var task: UInt64?
  /// Whether it runs on the main actor.
  package var isMain: Bool
  /// Who it is in every run of the test.
  package var identity: Identity

  package init(task: UInt64?, isMain: Bool, identity: Identity) {
    self.task = task
    self.isMain = isMain
    self.identity = identity
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
