@_spi(Internals) import Signals
import Synchronization

extension TaskDriver {
  /// The choice point: every decision of an explored schedule is asked here, of `options` in the
  /// order FIFO would run them (so 0 is FIFO's pick) — ready jobs, the wake-ups of sleeping tasks
  /// due now, the first of the scheduler's own actions due now — each with what the strategy sees
  /// of it. With fewer than two options there is no choice, and none is counted.
  static func choose<Option>(
    _ options: [(candidate: ScheduleCandidate, option: Option)], by schedule: ScheduleRun
  ) -> Option? {
    guard options.count > 1 else { return options.first?.option }
    return options[schedule.choose(among: options.map(\.candidate))].option
  }

  /// The ready jobs a schedule may run next, with their offsets in `ready`: any job bound for the
  /// generic executor (its task's own order is safe, as a task has one job at a time) and the first
  /// job bound for the main actor; the other main-actor jobs keep their order behind it, as the
  /// main actor's serial queue does.
  static func jobCandidates(
    in ready: FIFOQueue<ReadyJob>
  ) -> (offsets: [Int], candidates: [ScheduleCandidate]) {
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
      candidates.append(ScheduleCandidate(task: Jobs.taskID(of: job.job), isMain: isMain))
    }
    return (offsets, candidates)
  }

  /// The choice point among ready jobs alone: the offset in `ready` of the job to run. With fewer
  /// than two candidates there is no choice, and none is counted.
  static func choice(in ready: FIFOQueue<ReadyJob>, by schedule: ScheduleRun) -> Int {
    let (offsets, candidates) = jobCandidates(in: ready)
    return choose(Array(zip(candidates, offsets)), by: schedule) ?? 0
  }

  /// What runs next under an explored schedule: a ready job, or one of the wake-ups due now.
  enum Next {
    case job(ReadyJob)
    case wakeUp(Int)
  }

  /// The choice point with the wake-ups due at the current tick among the candidates: a wake-up
  /// can come between two jobs of another task. `nil` when no job is ready (the wake-ups then
  /// wait for the drain's pick among actions).
  func takeNext(wakeUps: [UInt64]) -> Next? {
    guard readyJobCount > 0 else { return nil }
    guard let schedule, !wakeUps.isEmpty else { return takeReadyJob().map(Next.job) }
    let next = readyQueue { ready -> Next? in
      guard ready.count > 0 else { return nil }
      let (offsets, candidates) = Self.jobCandidates(in: ready)
      // Jobs first (`nil`: the job at the same index of `offsets`), then the wake-ups.
      let options: [(candidate: ScheduleCandidate, option: Next?)] =
        candidates.map { (candidate: $0, option: nil) }
        + wakeUps.indices.map {
          (candidate: ScheduleCandidate(task: wakeUps[$0], isMain: false), option: .wakeUp($0))
        }
      let chosen =
        Self.choose(
          options.enumerated().map { index, option in (option.candidate, index) }, by: schedule)
        ?? 0
      if let wakeUp = options[chosen].option { return wakeUp }
      return .job(ready.remove(atOffset: offsets[chosen]))
    }
    if case .job(let job) = next {
      schedule.noteStep(task: Jobs.taskID(of: job.job), tick: tick.load(ordering: .relaxed))
    }
    return next
  }
}
