@_spi(Internals) import Signals

extension TaskDriver {
  /// The choice point: which of the ready jobs runs next, under an explored schedule.
  ///
  /// What may go first: any job bound for the generic executor (its task's own order is safe, as
  /// a task has one job at a time) and the first job bound for the main actor; the other
  /// main-actor jobs keep their order behind it, as the main actor's serial queue does. With
  /// fewer than two such jobs there is no choice, and none is counted.
  ///
  /// - Returns: The offset in `ready` of the job to run.
  static func choice(in ready: FIFOQueue<ReadyJob>, by schedule: ScheduleRun) -> Int {
    var offsets: [Int] = []
    var candidates: [ScheduleCandidate] = []
    offsets.reserveCapacity(ready.count)
    candidates.reserveCapacity(ready.count)
    var hasMain = false
    for offset in 0..<ready.count {
      let job = ready[offset: offset]
      let isMain = job.target == .main
      if isMain {
        guard !hasMain else { continue }
        hasMain = true
      }
      offsets.append(offset)
      candidates.append(
        ScheduleCandidate(
          task: Jobs.taskID(of: job.job), isMain: isMain))
    }
    guard candidates.count > 1 else { return 0 }
    return offsets[schedule.choose(among: candidates)]
  }
}
