/// Probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte, ASPLOS
/// 2010): every task gets a random priority when first seen, the highest-priority ready task runs,
/// and at `depth − 1` random choice points the running task's priority drops below every other.
/// A bug that needs `depth` ordering constraints is found with probability at least
/// 1/(n·k^(depth−1)) per schedule, for n tasks and k choice points.
package struct PCTStrategy: ScheduleStrategy {
  private var random: ScheduleRandom
  /// Priorities by task (jobs that are no task's share key 0).
  private var priorities = TaskTable<Int>()
  /// The choice points where the chosen task's priority drops, ascending.
  private var changePoints: [Int]
  private var choice = 0
  private var lowest = 0

  /// - Parameters:
  ///   - depth: The number of ordering constraints to aim for (1 to 3 in the portfolio).
  ///   - length: About how many choice points a schedule of the test has (schedule 0's count).
  ///   - seed: The seed.
  package init(depth: Int, length: Int, seed: UInt64) {
    var random = ScheduleRandom(seed: seed)
    let points = max(1, length)
    changePoints = (0..<max(0, depth - 1)).map { _ in Int.random(in: 0..<points, using: &random) }
      .sorted()
    self.random = random
  }

  package mutating func choose(among candidates: [ScheduleCandidate]) -> Int {
    defer { choice += 1 }
    var best = 0
    var bestPriority = Int.min
    // NB: an index loop, not `enumerated()`: a debug build ran that unspecialized, at every choice.
    var index = 0
    while index < candidates.count {
      let priority = self.priority(of: candidates[index].task ?? 0)
      if priority > bestPriority {
        best = index
        bestPriority = priority
      }
      index += 1
    }
    while let point = changePoints.first, point <= choice {
      changePoints.removeFirst()
      lowest -= 1
      priorities[candidates[best].task ?? 0] = lowest
    }
    return best
  }

  private mutating func priority(of task: UInt64) -> Int {
    if let known = priorities[task] { return known }
    let fresh = Int.random(in: 1...Int(Int32.max), using: &random)
    priorities[task] = fresh
    return fresh
  }
}
