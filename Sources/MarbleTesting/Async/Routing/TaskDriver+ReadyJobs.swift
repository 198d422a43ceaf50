import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// A driver's ready jobs: taken in by the routing decision and by the tasks that prefer the
/// driver, run one at a time by its drains and its world's loop, and let go where they would have
/// gone once the driver has let its work go.
extension TaskDriver {
  /// Takes a job of a task that prefers this executor.
  package func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    var ordinal: Int?
    if let id = Jobs.taskID(of: job) {
      let ref = unsafeBitCast(job, to: MarblesJobRef.self)
      ordinal = Registry.shared.withLock { $0.own(id, task: ref, by: self) }
    }
    if TaskDriver.current == nil { noteResumptionFromOutside() }
    makeReady(job, on: .preferred, ordinal: ordinal)
  }

  /// Notes that a driven task was resumed by code that is neither driven work nor the test's.
  func noteResumptionFromOutside() {
    note(
      "a driven task was resumed from outside virtual time, by code the scheduler does not "
        + "drive — a thread, a Dispatch queue, an actor with an executor of its own")
  }

  /// Makes a job ready to run at the scheduler's next drain — or, once the driver has let its
  /// work go, sends it where it would have gone.
  ///
  /// A job that goes on with the step running here is first in line: a hop of the running task,
  /// or of the task whose actor it leaves (as the runtime would start it at once). Under an
  /// explored schedule a hop that reaches an actor stays a choice — which task gets an actor
  /// first is a race the runtime's threads run — but a hop of a task's own job that changes no
  /// actor (off the main actor's queue onto the generic executor, off the driver onto it) is
  /// forced: no other job can see the difference, so a choice there would only double the orders
  /// to explore. (A world step runs a task's job where switches between nonisolated
  /// functions make no hop at all: ``run(_:waitsForever:isAWorldStep:)``.)
  ///
  /// - Parameters:
  ///   - job: The job.
  ///   - target: Where it must run.
  ///   - isWakeUp: Whether it is a sleep's wake-up job, whose only work is to resume its sleeper:
  ///     it runs next with no choice, and so does the sleeper it resumes (the wake-up action that
  ///     made it ready was the choice: "the sleeper goes now").
  ///   - ordinal: Its task's number in the world, where the caller has it from the registry's
  ///     entry of a task this driver owns (``runOrdinal(of:known:)``).
  func makeReady(
    _ job: UnownedJob, on target: Target, isWakeUp: Bool = false, ordinal known: Int? = nil
  ) {
    // NB: only a cancelled task comes back before its sleep's tick; the status flag spares every
    // other job the sleeps' lock.
    if standardSleepCount.load(ordering: .acquiring) > 0, Jobs.isCancelledTask(job) {
      endStandardSleepEarly(of: job)
    }
    let taskID = Jobs.taskID(of: job)
    let continues = continuesTheRunningStep(taskID, on: target)
    // A wake-up task's own hop is still the wake-up; the task it resumes goes on with it.
    let goesOnWithAWakeUp =
      target != .main && stepIsAWakeUp.load(ordering: .relaxed) && TaskDriver.current === self
    let isForced = isWakeUp || continues || goesOnWithAWakeUp
    let isContinued = isForced || isAHopOfTheRunningStep(taskID, on: target)
    var ordinal: Int?
    if schedule != nil, let taskID { ordinal = runOrdinal(of: taskID, known: known) }
    let isAbandoned = ready.withLock { ready -> Bool in
      // NB: read under the ready lock, which a give-up holds while it sets the flag and empties
      // the queue, so that no job is left behind.
      guard !self.isAbandoned.load(ordering: .acquiring) else { return true }
      let readyJob = ReadyJob(
        job: job, target: target, taskID: taskID, ordinal: ordinal, isForced: isForced,
        isWakeUp: isWakeUp || (continues && goesOnWithAWakeUp))
      if isContinued {
        ready.pushFirst(readyJob)
      } else {
        ready.append(readyJob)
      }
      readyCount.add(1, ordering: .releasing)
      return false
    }
    if isAbandoned {
      Self.release(ReadyJob(job: job, target: target, taskID: taskID), cancelling: false)
      return
    }
    guard let world, world.hasTaskRoot else { return }
    if world.isRoot(taskID) {
      world.rootJobIsReady()
    } else {
      world.wake()
    }
  }

  /// Runs a sleep's wake-up job at its tick, where the wake-up action runs — in a drain of this
  /// driver, under no explored schedule — rather than making it ready for a step of its own: its
  /// only work is to resume its sleeper, which then goes first in line, as it would after the
  /// wake-up's own step (a wake-up is first in line and forced). Elsewhere it is made ready.
  func runWakeUp(_ job: UnownedJob) {
    guard schedule == nil, TaskDriver.current === self, !isAbandoned.load(ordering: .acquiring)
    else {
      makeReady(job, on: .global, isWakeUp: true)
      return
    }
    _ = run(
      ReadyJob(
        job: job, target: .global, taskID: Jobs.taskID(of: job), ordinal: nil, isForced: true,
        isWakeUp: true))
  }

  /// How many jobs are ready to run.
  package var readyJobCount: Int {
    readyCount.load(ordering: .acquiring)
  }

  /// Takes the next ready job, if any: the first in line, or under an explored schedule the one
  /// it chooses (`takeChosen(racing:by:)`).
  func takeReadyJob() -> ReadyJob? {
    guard readyCount.load(ordering: .acquiring) > 0 else { return nil }
    if let schedule {
      guard case .job(let job) = takeChosen(racing: [], by: schedule) else { return nil }
      return job
    }
    return ready.withLock { ready in
      let job = ready.popFirst()
      if job != nil { readyCount.subtract(1, ordering: .releasing) }
      return job
    }
  }

  /// Runs `body` on the ready jobs, under their lock, keeping the count in step with what it
  /// takes (for the choice point).
  func readyQueue<Result>(_ body: (inout FIFOQueue<ReadyJob>) -> Result) -> Result {
    ready.withLock { ready in
      let before = ready.count
      let result = body(&ready)
      let taken = before - ready.count
      if taken > 0 { readyCount.subtract(taken, ordering: .releasing) }
      return result
    }
  }

  /// Puts a job taken but not run back, first in line.
  func putBack(_ job: ReadyJob) {
    ready.withLock { ready in
      ready.pushFirst(job)
      readyCount.add(1, ordering: .releasing)
    }
  }

  /// Takes every ready job, for a give-up.
  func takeEveryReadyJob(_ body: () -> Bool) -> [ReadyJob]? {
    ready.withLock { ready -> [ReadyJob]? in
      guard body() else { return nil }
      var jobs: [ReadyJob] = []
      while let job = ready.popFirst() { jobs.append(job) }
      readyCount.store(0, ordering: .releasing)
      return jobs
    }
  }

  /// Runs a ready job: on this thread, or on the main actor. Call it inside
  /// ``withCurrentDriver(_:)``.
  ///
  /// - Returns: `false` if the job is bound for the main actor and the main queue did not take it
  ///   within ``stallTimeout``; it then runs whenever the main queue comes free.
  ///
  /// - Parameters:
  ///   - ready: The job.
  ///   - waitsForever: Whether a job bound for the main actor waits for the main queue as long
  ///     as it takes (the test's own).
  ///   - isAWorldStep: Whether the world's loop runs it: under an explored schedule its hops are
  ///     then choices (a scheduler's own drains keep the generic executor's order).
  func run(_ ready: ReadyJob, waitsForever: Bool = false, isAWorldStep: Bool = false) -> Bool {
    let job = ready.job
    let taskID = ready.taskID
    stepTask.store(taskID ?? 0, ordering: .relaxed)
    stepIsAWakeUp.store(ready.isWakeUp, ordering: .relaxed)
    defer { if ready.isWakeUp { stepIsAWakeUp.store(false, ordering: .relaxed) } }
    // NB: an `async let` child lives in its parent's allocator, and the parent's next job may
    // leave the scope and free it: the children that ended are let go first (released later,
    // they were freed memory: signal 11 in an exploration of a world's `async let`s).
    if let taskID, Registry.hasAsyncLetChildren.load(ordering: .acquiring) {
      let ended = Registry.shared.withLock { $0.forgetEndedAsyncLetChildren(of: taskID) }
      for child in ended { Jobs.release(child.task) }
    }
    let hopsAreChoices = isAWorldStep && schedule != nil
    switch ready.target {
    case .global where DefaultExecutor.isRouting && !hopsAreChoices:
      // NB: on the generic executor a task that calls a free actor switches to it on this thread,
      // as the runtime's fast path does. In a world's step under an explored schedule the job
      // runs on the driver instead, where every hop onto or off an actor is enqueued: which task
      // reaches an actor first — a race between the pool's threads — is a schedule's choice.
      Jobs.runOnGenericExecutor(job)
    case .global where hopsAreChoices && taskID != nil && Jobs.knowsTheSynchronousStartMarker:
      // NB: a task's job under an explored schedule runs where the runtime never takes an actor
      // on the job's thread: which task reaches an actor first — a race between the pool's
      // threads — is a schedule's choice. On the driver instead (where the runtime has no
      // marker), its every switch to a nonisolated function is a hop to enqueue too (the driver
      // is a task executor the task does not prefer): a step more, no choice more.
      threadWhoseHopsAreChoices.store(ThreadSlot.threadID, ordering: .relaxed)
      Jobs.runNeverTakingAnActor(job)
      threadWhoseHopsAreChoices.store(0, ordering: .relaxed)
    case .global, .preferred:
      guard hopsAreChoices else {
        job.runSynchronously(on: asUnownedTaskExecutor())
        return true
      }
      threadWhoseHopsAreChoices.store(ThreadSlot.threadID, ordering: .relaxed)
      job.runSynchronously(on: asUnownedTaskExecutor())
      threadWhoseHopsAreChoices.store(0, ordering: .relaxed)
    case .main where MainQueue.isCurrent:
      job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
    case .main:
      let task = Jobs.taskID(of: job)
      guard !waitsForever else {
        // The test's own job on the main actor: it takes as long as it takes.
        let done = DispatchSemaphore(value: 0)
        RealTime.reading {
          DispatchQueue.main.async {
            self.withCurrentDriver {
              job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
            }
            RealTime.reading { _ = done.signal() }
          }
          done.wait()
        }
        return true
      }
      let ran = onTheMainQueue {
        job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
      } stopsWaiting: {
        // The job runs whenever the main queue comes free; until then its task is stuck on the
        // main actor, which every report of it says.
        if let task { _ = watch.withLock { $0.waitingForTheMainActor.insert(task) } }
      } runsLate: {
        if let task { _ = self.watch.withLock { $0.waitingForTheMainActor.remove(task) } }
      }
      return ran
    }
    return true
  }

  /// Whether a job of task `id` continues, on the generic executor, the step of its task running
  /// now: the task is leaving the main actor or an actor (a hop). Such a job runs next, before the
  /// jobs already ready, as the global executor would start it at once.
  func continuesTheRunningStep(_ id: UInt64?, on target: Target) -> Bool {
    guard target != .main, TaskDriver.current === self, let id else {
      return false
    }
    return id == stepTask.load(ordering: .relaxed)
  }

  /// Whether a job enqueued now is a hop of the step running here, under an explored schedule:
  /// its work runs where the runtime takes no actor on the thread (see
  /// ``run(_:waitsForever:isAWorldStep:)``), so a task's switch onto an idle actor enqueues the
  /// actor's turn — a job that is no task's — with no task current, where the generic executor
  /// would have switched on this thread at once. (Leaving an actor goes on on the actor's thread,
  /// as in the runtime: no job.) Such a job runs next in FIFO order — the order of a run without
  /// exploring — and is a choice the schedule may depart from.
  ///
  /// A task's own job enqueued with no task current is no hop: a continuation resumed by a job
  /// that is no task's (a `Task.yield()`'s), a parent woken by its child's end. The runtime puts
  /// it at the back of the line, and so does FIFO.
  func isAHopOfTheRunningStep(_ taskID: UInt64?, on target: Target) -> Bool {
    guard taskID == nil, target == .global, Jobs.currentTask == nil else { return false }
    let thread = threadWhoseHopsAreChoices.load(ordering: .relaxed)
    return thread != 0 && thread == ThreadSlot.threadID
  }

  /// Sends a job where it would have gone without the driver, cancelling its task first if asked.
  static func release(_ ready: ReadyJob, cancelling: Bool) {
    if cancelling { Jobs.cancelTask(of: ready.job) }
    switch ready.target {
    case .global, .preferred: Jobs.enqueueGlobal(ready.job)
    case .main: MainActorRouter.enqueueOnMainQueue(ready.job)
    }
  }

  /// Forgets task `id` if it completed: its last job ran.
  ///
  /// - Returns: Whether the task is one this driver may still have to wait for: owned by it,
  ///   and not complete.
  @discardableResult
  func forgetIfComplete(_ id: UInt64?) -> Bool {
    guard let id else { return false }
    let (task, isLive) = Registry.shared.withLock { registry -> (MarblesJobRef?, Bool) in
      guard let entry = registry.owners[id] else { return (nil, false) }
      guard Jobs.status(of: entry.task).isComplete else { return (nil, entry.driver === self) }
      return (registry.forget(id), false)
    }
    guard let task else { return isLive }
    Jobs.release(task)
    return false
  }
}
