@_spi(Internals) import Signals
import Synchronization

// What a run does next is decided here, and only here: a ready job of a driven task, or the next
// action of the scheduler's time queue. Without a schedule, FIFO: every ready job, in the order
// it became ready, before the next action, and actions in time order. Under an explored schedule
// each step builds one list of candidates in the order FIFO would run them — the ready jobs, then
// the wake-ups of sleeping tasks due now, then the first of the scheduler's own actions due now —
// and asks the strategy once which goes first (`choose(_:by:)`, the one call into it).

/// One step of a run.
enum NextStep {
  /// A job of a driven task, taken out of the ready queue.
  case job(TaskDriver.ReadyJob)
  /// An action, taken out of the time queue, the clock at its tick.
  case action(ActionHeap.Key, @Sendable () -> Void)
  /// The step limit is reached: what was next stays in line.
  case stepLimit
  /// The tick is over, and the run's `isDone` says stop.
  case tickEnd
  /// No job is ready, and no live action is due by the run's limit.
  case nothing
}

/// How far a run is from its step limit: the steps it took, and when it began (a value passed
/// `inout`, so that checking it costs no dynamic exclusivity check per step).
struct StepBudget {
  /// Real nanoseconds when the run had taken ``SchedulerCore/stepsBeforeTheClock`` steps
  /// (`SchedulerCore.realNanoseconds()`), or 0 before: a run that ends sooner never reads the
  /// clock.
  private var start: Int64 = 0
  /// The actions and jobs run so far.
  var steps = 0
  /// Which limit stopped the run, once one has.
  var stop: SchedulerCore.StepLimitStop?

  /// Whether the run must stop before its next step.
  mutating func isReached(by core: SchedulerCore) -> Bool {
    if start == 0, steps >= SchedulerCore.stepsBeforeTheClock {
      start = SchedulerCore.realNanoseconds()
    }
    if stop == nil { stop = core.stepLimitStop(after: steps, since: start) }
    return stop != nil
  }
}

extension SchedulerCore {
  /// The next step of a run through `limit` (every tick with `nil`).
  ///
  /// - Parameters:
  ///   - stopsAtTickEnds: Whether to ask `isDone` when a tick is over, before the clock moves on.
  ///   - isDone: Asked, outside any lock, at the end of a tick.
  ///   - budget: How far the run is from its step limit.
  func nextStep(
    through limit: Int?, stopsAtTickEnds: Bool, isDone: () -> Bool, budget: inout StepBudget
  ) -> NextStep {
    while true {
      if driver.readyJobCount > 0 {
        if let schedule = driver.schedule {
          // A wake-up or the scheduler's first action due now races the ready jobs.
          let due = state.withLock { $0.time.dueNow(offeringHarness: false) }
          switch driver.takeChosen(racing: due.map(Self.candidate), by: schedule) {
          case .job(let job): return .job(job)
          case .due(let index):
            // At the limit the action stays in line (choosing again would only choose again).
            guard !budget.isReached(by: self) else { return .stepLimit }
            // NB: taking a wake-up out frees its slot (a wake-up is a one-shot action).
            guard let taken = state.withLock({ $0.time.take(due[index].key) }) else {
              continue
            }
            return .action(taken.key, taken.body)
          case nil: break
          }
        } else if let job = driver.takeReadyJob() {
          return .job(job)
        }
      }
      if stopsAtTickEnds {
        // The tick is over when no live action is due at it: ask before the clock moves on.
        let isTickOver = state.withLock { state in
          state.time.dropCancelledHead().map { $0 > state.time.now } ?? true
        }
        if isTickOver, isDone() { return .tickEnd }
      }
      switch takeNextAction(through: limit, atLimit: budget.isReached(by: self)) {
      case .run(let key, let body): return .action(key, body)
      case .stepLimit: return .stepLimit
      case nil: return .nothing
      }
    }
  }

  /// What a world's loop does with a scheduler whose jobs are ready.
  enum ReadyStep {
    /// Runs this job.
    case job(TaskDriver.ReadyJob)
    /// Nothing more: an action due now went first, and ran.
    case ranAction
    /// Nothing: no job was ready.
    case nothing
  }

  /// A step of the test's world while this scheduler's jobs are ready: the next one — or, under
  /// an explored schedule, a wake-up or the scheduler's first action due now, which races the
  /// ready jobs as in ``nextStep(through:stopsAtTickEnds:isDone:budget:)`` and runs here. No
  /// action is taken while a call of the test drives the scheduler.
  func nextReadyStep() -> ReadyStep {
    guard driver.readyJobCount > 0 else { return .nothing }
    guard let schedule = driver.schedule else {
      // NB: not `Optional.map`, a generic call in a debug build, on every step.
      guard let job = driver.takeReadyJob() else { return .nothing }
      return .job(job)
    }
    while true {
      // NB: the lock only when an action may be due: most steps have none, and the lock and the
      // list cost a tenth of an explored step. (Under a schedule the driver's tick is the clock's.)
      let due =
        earliestAction.mayBeDue(at: driver.tick.load(ordering: .relaxed))
        ? state.withLock { state in
          state.isRunning ? [] : state.time.dueNow(offeringHarness: false)
        } : []
      switch driver.takeChosen(racing: due.map(Self.candidate), by: schedule) {
      case .job(let job):
        return .job(job)
      case .due(let index):
        // NB: taking a wake-up out frees its slot (a wake-up is a one-shot action).
        guard let taken = state.withLock({ $0.time.take(due[index].key) }) else { continue }
        runTaken(taken.key, taken.body)
        return .ranAction
      case nil:
        return .nothing
      }
    }
  }

  /// What comes next in the time queue.
  enum NextAction {
    case run(ActionHeap.Key, @Sendable () -> Void)
    /// A live action is due, but the step limit is reached: it stays in line.
    case stepLimit
  }

  /// Takes the next live action due by `limit` (any tick with `nil`) out of line, moving the clock
  /// to its tick; under an explored schedule, one of the wake-ups due then may go first. A
  /// cancelled action is dropped without moving the clock: it never happened.
  ///
  /// - Parameter unlessRunning: Takes nothing while a run is under way.
  func takeNextAction(through limit: Int?, atLimit: Bool, unlessRunning: Bool = false)
    -> NextAction?
  {
    /// What the time queue offers, under its lock.
    enum Offer {
      case next(NextAction)
      case choice([TimeQueue.Due], ScheduleRun)
      /// The action went meanwhile: look again.
      case again
    }
    while true {
      let offer = state.withLock { state -> Offer? in
        if unlessRunning, state.isRunning { return nil }
        guard let first = state.time.takeFirst(through: limit) else { return nil }
        setNow(max(state.time.now, first.time), in: &state)
        if atLimit {
          // Put the action back where it was, first in line: nothing is lost, a later call can go
          // on.
          state.time.putBack(first)
          return .next(.stepLimit)
        }
        if let schedule = driver.schedule, state.time.hasWakeUps {
          // No job is ready: the wake-ups due now may run before the scheduler's first action,
          // and before each other.
          state.time.putBack(first)
          let due = state.time.dueNow(offeringHarness: true)
          guard due.isEmpty else { return .choice(due, schedule) }
          return state.time.take(first).map { .next(.run($0.key, $0.body)) } ?? .again
        }
        let started = state.time.start(first)
        return .next(.run(started.key, started.body))
      }
      switch offer {
      case .next(let next): return next
      case .again: continue
      case .choice(let due, let schedule):
        // The strategy is asked outside the queue's lock.
        let chosen = TaskDriver.choose(due.map(Self.candidate), by: schedule)
        guard let taken = state.withLock({ $0.time.take(due[chosen].key) }) else { continue }
        return .run(taken.key, taken.body)
      case nil: return nil
      }
    }
  }

  /// An action due now as a schedule's candidate: a wake-up stands for its task (by its number in
  /// the run, else the action's id), any other action for itself.
  static func candidate(_ due: TimeQueue.Due) -> ScheduleCandidate {
    guard let wakeUp = due.wakeUp else {
      return ScheduleCandidate(task: nil, isMain: false, identity: .action(due.id))
    }
    return ScheduleCandidate(
      task: wakeUp.task, isMain: false,
      identity: wakeUp.ordinal.map { .task($0) } ?? .action(due.id))
  }
}

extension TaskDriver {
  /// The choice point: every decision of an explored schedule is asked here, of `candidates` in the
  /// order FIFO would run them (so 0 is FIFO's pick), and it returns the index of the one to run.
  /// With fewer than two there is no choice, and none is counted.
  static func choose(_ candidates: [ScheduleCandidate], by schedule: ScheduleRun) -> Int {
    candidates.count > 1 ? schedule.choose(among: candidates) : 0
  }

  /// Whether `job`, next in `ready`'s order, is one a schedule may run next: any job bound for the
  /// generic executor (its task's own order is safe, as a task has one job at a time) and the first
  /// job bound for the main actor (`hasMain` says whether one came before); the other main-actor
  /// jobs keep their order behind it, as the main actor's serial queue does.
  ///
  /// NB: the loops that ask are plain loops over offsets, with no closure: a debug build, which is
  /// how tests are built, called a closure per ready job at every choice.
  private static func isCandidate(_ job: ReadyJob, hasMain: inout Bool) -> Bool {
    guard job.target == .main else { return true }
    guard !hasMain else { return false }
    hasMain = true
    return true
  }

  /// The candidates among the ready jobs (``isCandidate(_:hasMain:)``), each named as a token
  /// records it.
  static func jobCandidates(in ready: FIFOQueue<ReadyJob>) -> [ScheduleCandidate] {
    var candidates: [ScheduleCandidate] = []
    candidates.reserveCapacity(ready.count)
    var hasMain = false
    var unnumbered = 0
    var offset = 0
    while offset < ready.count {
      let job = ready[offset: offset]
      offset += 1
      guard isCandidate(job, hasMain: &hasMain) else { continue }
      let identity: ScheduleCandidate.Identity
      if let ordinal = job.ordinal {
        identity = .task(ordinal)
      } else {
        identity = .job(unnumbered)
        unnumbered += 1
      }
      candidates.append(
        ScheduleCandidate(task: job.taskID, isMain: job.target == .main, identity: identity))
    }
    return candidates
  }

  /// Where in `ready` the candidate at `index` of ``jobCandidates(in:)`` is; `nil` past the end.
  private static func offset(ofCandidate index: Int, in ready: FIFOQueue<ReadyJob>) -> Int? {
    var hasMain = false
    var remaining = index
    var offset = 0
    while offset < ready.count {
      if isCandidate(ready[offset: offset], hasMain: &hasMain) {
        if remaining == 0 { return offset }
        remaining -= 1
      }
      offset += 1
    }
    return nil
  }

  /// What an explored step took: a ready job, or which of the steps due it chose.
  enum Chosen {
    case job(ReadyJob)
    case due(Int)
  }

  /// The choice point among the ready jobs and `due`, the steps due at the current tick that may
  /// go between two jobs of another task: the job chosen is taken out of the ready queue, and the
  /// run notes it. `nil` when no job is ready (a give-up took every job).
  ///
  /// Decided under the ready queue's lock, the strategy asked and the step noted under the run's
  /// (which is never held while a ready queue's is taken): no other thread moves a job between the
  /// offer and the take.
  func takeChosen(racing due: [ScheduleCandidate], by schedule: ScheduleRun) -> Chosen? {
    let tick = tick.load(ordering: .relaxed)
    return readyQueue { ready -> Chosen? in
      guard ready.count > 0 else { return nil }
      // A forced job goes on with what just ran: no choice (see `makeReady`).
      if ready[offset: 0].isForced {
        let job = ready.popFirst()!
        schedule.noteStep(task: job.taskID, tick: tick)
        return .job(job)
      }
      let offered = Self.jobCandidates(in: ready)
      let index = schedule.chooseStep(
        among: due.isEmpty ? offered : offered + due, jobs: offered.count, tick: tick)
      guard index < offered.count else { return .due(index - offered.count) }
      // NB: the candidates were made from this queue, under this lock: the offset is there.
      return .job(ready.remove(atOffset: Self.offset(ofCandidate: index, in: ready)!))
    }
  }
}
