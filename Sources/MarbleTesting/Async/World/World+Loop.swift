import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// Awaits drive: the loop that runs a world's work while its root waits.
///
/// It runs on the world's own serial queue (a thread outside the cooperative pool, which it may
/// block): the root's jobs and every other ready job of the world, one at a time, in the order
/// the schedulers' choice point gives; when none is ready and the root waits, the top scheduler's
/// next due action (moving its clock); when nothing is due, it decides between a deadlock and a
/// wait on something outside. While the root runs, nothing else of the world does, unless the
/// root drives it itself (`advance`, `run`, `flush`).
extension World {
  /// Something of the world changed — a job is ready, a sleep began, work arrived from outside:
  /// the loop takes a look.
  func wake() {
    let hasTaskRoot = hasTaskRoot
    let (starts, isWaiting) = state.withLock { state -> (Bool, Bool) in
      state.hasNews = true
      let isWaiting = state.isWaitingForArrivals
      state.isWaitingForArrivals = false
      guard hasTaskRoot, !state.isLoopActive, !state.isClosed, !state.hasGivenUp else {
        return (false, isWaiting)
      }
      state.isLoopActive = true
      return (true, isWaiting)
    }
    if isWaiting { RealTime.reading { _ = arrivals.signal() } }
    // NB: Marbles' own dispatches are not work the world handed outside.
    if starts {
      if isRootOnTheMainQueue, !hasPostedTheFirstTurn.exchange(true, ordering: .relaxed) {
        RealTime.reading { DispatchQueue.main.async { self.turnOnTheMainQueue() } }
      } else {
        RealTime.reading { loop.async { self.turning(self.turn) } }
      }
    }
    if !hasTaskRoot { postRootThreadTurn() }
  }

  /// A job of the root: made ready on `top`, the scheduler on top of the root's stack.
  ///
  /// - Returns: `false` if the world has no scheduler left to run it.
  func takeRootJob(_ job: UnownedJob, on target: TaskDriver.Target, onto top: TaskDriver?) -> Bool {
    guard let top else { return false }
    top.makeReady(job, on: target)
    return true
  }

  // MARK: The loop

  func turn() {
    var pause = Duration.microseconds(10)
    while true {
      switch nextMove() {
      case .stop:
        return
      case .waitForTheRootToSuspend:
        // The job that opened the world still runs on a thread of its own: the loop looks when
        // the world has news (the root's next job made ready, a sleep begun — what a suspending
        // root does), else less and less often, until it suspends for good or ends. Not merely
        // "not running": the runtime flags a task suspended before it awaits its continuation,
        // and a resumption that comes first — world work the loop would run now — lets it go on
        // on its own thread, the loop stepping and moving time beside it (46.10: one world in
        // about 3,000,000 ended at the wrong tick).
        if let rootTask, !Jobs.hasSuspended(rootTask), isOpen {
          if waitForArrivals(upTo: pause) {
            // News from the root is a sign it is about to suspend: a timed wait would take the
            // timer's slack (about 50 µs on Linux) each time, so the loop looks again at once.
            for _ in 0..<200 where !Jobs.hasSuspended(rootTask) { Platform.yieldThread() }
          } else {
            pause = min(pause * 2, .milliseconds(1))
          }
          continue
        }
        state.withLock { $0.isRootRunningElsewhere = false }
        openingJobEnded()
        closeIfRootFinished()
      case .step(let next):
        step(next)
      }
    }
  }

  /// Steps on the main thread while work is ready there; returns what it leaves to the loop.
  func stepOnTheMainThread() -> Leaving {
    while case .step(let next) = nextMove() {
      let leaving = step(next, isOnTheMainThread: true)
      if case .nothing = leaving { continue }
      return leaving
    }
    return .theNextDecision
  }

  /// Runs a ready job of `driver` on this thread, as that driver's work — or, for the root's job
  /// on the main actor, on the main thread, where the loop then stays while work is ready: one
  /// hop there and back per wait of a `@MainActor` test, not one per job.
  ///
  /// - Returns: `false` if the root finished.
  func run(
    _ job: TaskDriver.ReadyJob, of driver: TaskDriver, isOnTheMainThread: Bool = false
  ) -> Bool {
    let id = job.taskID
    let isRoot = isRoot(id)
    if isRoot, case .main = job.target, !MainQueue.isCurrent {
      let done = DispatchSemaphore(value: 0)
      let left = Locked(Leaving.theNextDecision)
      RealTime.reading {
        DispatchQueue.main.async {
          if self.runHere(job, of: driver, isRoot: true) {
            let leaving = self.stepOnTheMainThread()
            left.withLock { $0 = leaving }
          }
          RealTime.reading { _ = done.signal() }
        }
        done.wait()
      }
      if case .theRootsJob(let job, let driver) = left.withLock({ $0 }) {
        return run(job, of: driver)
      }
      // NB: a world closes on the loop's own thread, never the main thread it may wait for.
      closeIfRootFinished()
      return false
    }
    let goesOn = runHere(job, of: driver, isRoot: isRoot)
    if !goesOn, !isOnTheMainThread { closeIfRootFinished() }
    return goesOn
  }

  /// The first turn of a world whose root's opening job runs on the main queue (a `@MainActor`
  /// test): queued behind that job, it runs the moment the job suspends — no polling, no hop —
  /// and steps there while work is ready. What needs waiting (the idle decision), a root that
  /// runs on elsewhere or finished, and the root's jobs bound off the main actor go to the loop's
  /// own thread.
  func turnOnTheMainQueue() {
    var leaving = Leaving.theNextDecision
    if let status = rootStatus, !status.isRunning, !status.isComplete {
      state.withLock { $0.isRootRunningElsewhere = false }
      openingJobEnded()
      leaving = stepOnTheMainThread()
    }
    guard state.withLock({ $0.isLoopActive }) else { return }
    let handedOver = leaving
    RealTime.reading {
      loop.async {
        self.turning {
          if case .theRootsJob(let job, let driver) = handedOver { _ = self.run(job, of: driver) }
          self.turn()
        }
      }
    }
  }

  /// Runs a ready job here; `false` if it was the root's and the root finished.
  func runHere(_ job: TaskDriver.ReadyJob, of driver: TaskDriver, isRoot: Bool) -> Bool {
    let id = job.taskID
    if let id {
      state.withLock { state in
        if state.stepsAtOneTime >= SchedulerCore.stepsBeforeTheClock {
          state.jobsAtOneTime[id, default: 0] += 1
        }
      }
    }
    driver.drain {
      _ = driver.run(job, waitsForever: isRoot, isAWorldStep: true)
    }
    // NB: the root is no driver's task: nothing to forget.
    guard isRoot else {
      driver.forgetIfComplete(id)
      // A task leaving an actor whose job ran on the driver (a step whose hops are choices) runs
      // on inline, the root too: the root may have finished in another task's job.
      return rootStatus?.isComplete != true
    }
    state.withLock { state in
      state.rootJobs = max(0, state.rootJobs - 1)
      state.stepsSinceRoot = 0
    }
    return rootStatus?.isComplete != true
  }

  /// Runs a job of the world that is not the main actor's on the loop's queue, for a turn on the
  /// root thread; until it has run, it counts as runnable (``jobsUnderWay``), and then the next
  /// turn is posted.
  func handToTheLoop(_ job: TaskDriver.ReadyJob, of driver: TaskDriver) {
    jobsUnderWay.add(1, ordering: .acquiringAndReleasing)
    RealTime.reading {
      loop.async { [self] in
        driver.drain { _ = driver.run(job) }
        driver.forgetIfComplete(job.taskID)
        jobsUnderWay.subtract(1, ordering: .acquiringAndReleasing)
        wake()
        postRootThreadTurn()
      }
    }
  }

  /// Stops the loop until something wakes it, unless something arrived meanwhile.
  func park() {
    state.withLock { state in
      if !state.hasNews { state.isLoopActive = false }
    }
  }

  // MARK: A thread root

  /// Posts a turn on the root thread's run loop — the main queue, which the main thread serves
  /// only while it sits in its run loop (XCTest's waiter, `RunLoop.run`), never while the test's
  /// own code runs there — unless one is posted, or nothing of the world waits for it.
  func postRootThreadTurn() {
    guard case .thread = root, isRootOnTheMainThread else { return }
    let posts = state.withLock { state -> Bool in
      guard !state.isRootThreadTurnPosted, !state.isClosed, !state.hasGivenUp else { return false }
      state.isRootThreadTurnPosted = true
      return true
    }
    if posts { RealTime.reading { DispatchQueue.main.async { self.turnOnTheRootThread() } } }
  }

  /// One step of the world while its root thread sits in its run loop: a ready job, else — while
  /// a task the root thread started is unfinished — the next due action, else the idle decision.
  /// Then it posts the next turn, so that the run loop (and whoever waits in it) looks between
  /// steps.
  func turnOnTheRootThread() {
    state.withLock { $0.isRootThreadTurnPosted = false }
    guard isOpen, state.withLock({ !$0.hasGivenUp }), let top, let core = top.core else { return }
    // NB: a job handed to the loop's queue posts the next turn when it has run.
    guard jobsUnderWay.load(ordering: .acquiring) == 0 else { return }
    for driver in drivers {
      if let job = driver.takeReadyJob() {
        state.withLock { $0.idleSince = nil }
        guard job.target == .main else {
          // A job bound for the generic executor runs off the main thread, as the pool runs it:
          // code that is not the main actor's never sees the main thread.
          handToTheLoop(job, of: driver)
          return
        }
        driver.drain { _ = driver.run(job) }
        driver.forgetIfComplete(job.taskID)
        postRootThreadTurn()
        return
      }
    }
    guard hasUnfinishedCoRoots else { return }
    let next = state.withLock { state -> Step in
      countStep(in: &state)
      return Step(
        drivers: state.drivers, top: top, steps: state.stepsSinceRoot,
        since: state.stepsSinceRootStart, stepsAtOneTime: state.stepsAtOneTime,
        stepsAtOneTimeSince: state.stepsAtOneTimeStart)
    }
    if let limit = limitReached(core: core, next) {
      giveUp(because: limit.report, isLivelock: limit.isLivelock)
      return
    }
    switch moveTime(top: top, drivers: next.drivers) {
    case .moved:
      state.withLock { $0.idleSince = nil }
      postRootThreadTurn()
      return
    case .blocksPending:
      RealTime.reading {
        loop.async { [self] in
          waitForBlocks(top: top)
          if isOpen, state.withLock({ !$0.hasGivenUp }) { postRootThreadTurn() }
        }
      }
      return
    case .nothingDue:
      break
    }
    // Idle: the world's own queue waits a moment for work from outside, and decides once the
    // turns have found nothing to do for the idle decision's whole grace.
    RealTime.reading {
      loop.async { [self] in
        idleBetweenTurns(top: top)
        if isOpen, state.withLock({ !$0.hasGivenUp }) { postRootThreadTurn() }
      }
    }
  }

  /// The idle decision of a root thread's turns, which look again every few milliseconds (the run
  /// loop they are posted on may hold work that gives no sign of itself): once they have found
  /// nothing to run for the whole grace of ``idle(top:)``, it decides as that does.
  func idleBetweenTurns(top: TaskDriver) {
    let now = SchedulerCore.realNanoseconds()
    let since = state.withLock { state -> Int64 in
      if state.idleSince == nil { state.idleSince = now }
      return state.idleSince ?? now
    }
    let outside = waitsOutside()
    let grace = outside.isEmpty ? min(top.stallTimeout, World.deadlockGrace) : top.stallTimeout
    let waited = now - since
    guard waited >= grace.saturatingNanoseconds else {
      let left = Duration.nanoseconds(grace.saturatingNanoseconds - waited)
      _ = waitForArrivals(upTo: min(left, .milliseconds(10)))
      return
    }
    state.withLock { $0.idleSince = nil }
    noteSignalsAnswered()
    guard isOpen, !isWaitingForATurn else { return }
    // A task outside the world that its work awaits, ready or running, makes progress.
    if outside.isEmpty || !isAwaitedOutsideWorkRunnable() {
      if outside.isEmpty {
        giveUp(because: deadlockReport(top: top))
      } else {
        giveUp(because: outsideReport(top: top, outside), waitingOutside: true)
      }
    }
  }

  /// Whether a task the root thread started is unfinished.
  var hasUnfinishedCoRoots: Bool {
    let ids = state.withLock { $0.coRoots }
    guard !ids.isEmpty else { return false }
    let tasks = Registry.shared.withLock { registry in
      ids.compactMap { registry.owners[$0]?.task }
    }
    return tasks.contains { !Jobs.status(of: $0).isComplete }
  }

  // MARK: Nothing ready, nothing due

  /// The root waits, and nothing of the world is ready or due. Work that waits on something
  /// outside the world is given ``TaskDriver/stallTimeout`` of real time to come back; a deadlock
  /// — nothing outside to wait for — fails at once, after a moment's grace for a resumption from
  /// outside that gave no sign of itself.
  func idle(top: TaskDriver) {
    let outside = waitsOutside()
    let grace = outside.isEmpty ? min(top.stallTimeout, World.deadlockGrace) : top.stallTimeout
    while !waitForArrivals(upTo: grace) {
      guard isOpen else { return }
      if isWaitingForATurn { continue }
      // A task outside the world that its work awaits, ready or running, makes progress.
      if outside.isEmpty || !isAwaitedOutsideWorkRunnable() {
        let report = outside.isEmpty ? deadlockReport(top: top) : outsideReport(top: top, outside)
        giveUp(because: report, waitingOutside: !outside.isEmpty)
        return
      }
    }
    // Something arrived. It answers the threads woken so far only if it brought work to run: an
    // action scheduled from outside for later, or a wake-up left from before this decision, is
    // not their answer, and the world goes on waiting for them.
    if drivers.contains(where: { $0.readyJobCount > 0 }) { noteSignalsAnswered() }
  }

  /// Whether a Dispatch block that world work handed over has not yet run to its end.
  var hasPendingBlocks: Bool {
    clock.pendingBlocks > 0
  }

  /// Waits, in real time, for the world's Dispatch blocks to run — their end wakes the loop —
  /// up to ``TaskDriver/stallTimeout``; then the world gives up, naming them.
  func waitForBlocks(top: TaskDriver) {
    guard !waitForArrivals(upTo: top.stallTimeout), isOpen else { return }
    let blocks = clock.pendingBlocks
    guard blocks > 0, !isWaitingForATurn else { return }
    giveUp(
      because: outsideReport(
        top: top,
        [
          "\(blocks) Dispatch block\(blocks == 1 ? "" : "s") that the world's work handed to a "
            + "queue (dispatch_async) and that the queue did not run"
        ]),
      waitingOutside: true)
  }

  /// How long a world whose work shows no sign of waiting on something outside waits for work to
  /// arrive before it calls its state a deadlock.
  static let deadlockGrace = Duration.milliseconds(100)

  /// Waits in real time for something to wake the loop; `true` if something did.
  func waitForArrivals(upTo timeout: Duration) -> Bool {
    let hasNews = state.withLock { state -> Bool in
      if state.hasNews { return true }
      state.isWaitingForArrivals = true
      return false
    }
    if hasNews { return true }
    let arrived = RealTime.reading {
      arrivals.wait(timeout: RealTime.deadline(after: timeout)) == .success
    }
    return state.withLock { state in
      state.isWaitingForArrivals = false
      return arrived || state.hasNews
    }
  }

}
