@_spi(Internals) import Signals
import Synchronization

extension TaskDriver {
  /// The choice point: every decision of an explored schedule is asked here, of `candidates` in the
  /// order FIFO would run them (so 0 is FIFO's pick) — ready jobs, then the wake-ups of sleeping
  /// tasks due now, then the first of the scheduler's own actions due now — and it returns the
  /// index of the one to run. With fewer than two there is no choice, and none is counted.
  static func choose(_ candidates: [ScheduleCandidate], by schedule: ScheduleRun) -> Int {
    candidates.count > 1 ? schedule.choose(among: candidates) : 0
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
    var unnumbered = 0
    for offset in 0..<ready.count {
      let job = ready[offset: offset]
      let isMain = job.target == .main
      if isMain {
        guard !hasMain else { continue }
        hasMain = true
      }
      offsets.append(offset)
      let identity: ScheduleCandidate.Identity
      if let ordinal = job.ordinal {
        identity = .task(ordinal)
      } else {
        identity = .job(unnumbered)
        unnumbered += 1
      }
      candidates.append(
        ScheduleCandidate(task: Jobs.taskID(of: job.job), isMain: isMain, identity: identity))
    }
    return (offsets, candidates)
  }

  /// The choice point among ready jobs alone: the offset in `ready` of the job to run. With fewer
  /// than two candidates there is no choice, and none is counted.
  static func choice(in ready: FIFOQueue<ReadyJob>, by schedule: ScheduleRun) -> Int {
    let (offsets, candidates) = jobCandidates(in: ready)
    return offsets[choose(candidates, by: schedule)]
  }

  /// What runs next under an explored schedule: a ready job, or one of the steps due now.
  enum Next {
    case job(ReadyJob)
    case due(Int)
  }

  /// The choice point with the steps due at the current tick among the candidates — wake-ups and
  /// the scheduler's first action: one can come between two jobs of another task. `nil` when no
  /// job is ready (the steps due then wait for the drain's pick among actions).
  func takeNext(due: [ScheduleCandidate]) -> Next? {
    guard readyJobCount > 0 else { return nil }
    guard let schedule, !due.isEmpty else { return takeReadyJob().map(Next.job) }
    let next = readyQueue { ready -> Next? in
      guard ready.count > 0 else { return nil }
      let (offsets, candidates) = Self.jobCandidates(in: ready)
      // Jobs first, then the steps due.
      let jobs = candidates.count
      let chosen = Self.choose(candidates + due, by: schedule)
      if chosen >= jobs { return .due(chosen - jobs) }
      return .job(ready.remove(atOffset: offsets[chosen]))
    }
    if case .job(let job) = next {
      schedule.noteStep(task: Jobs.taskID(of: job.job), tick: tick.load(ordering: .relaxed))
    }
    return next
  }
}
