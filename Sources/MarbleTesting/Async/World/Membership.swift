import CMarbleRuntime
@_spi(Internals) import Signals
import Synchronization

/// Membership: which world a job, a task or the code on a thread belongs to, or none — the one
/// question every runtime hook asks (the global executor's enqueue, the main actor's executors,
/// the default executor, a standard sleep, a Dispatch block handed over), in one place.
///
/// - A **task** belongs to the world that owns it (kept by id, so a resumption from anywhere comes
///   back), as its root or as a task its work created (a new task — created after the world
///   opened — enqueued by world work).
/// - A **job that is not a task's** (an actor's, a continuation's) belongs to the world whose work
///   enqueues it — or, where no task is current, to the world of the task in transit on this
///   thread (the runtime enqueues an actor's job while it switches a task onto it).
/// - **Code on a thread** belongs to the world whose work the thread runs now (a drain, a job the
///   world's loop runs, the root's job that opened the world, a Dispatch block of the world), and
///   to none otherwise: a thread that is not running world work is outside.
///
/// Everything else goes where it was going.
enum Membership {
  private enum Decision {
    /// The driver takes it; `ordinal`: its task's number in the world, from the registry's entry.
    case driver(TaskDriver, ordinal: Int?)
    case root(World)
    case pass
  }

  /// Takes `job` into a world if it belongs to one.
  ///
  /// - Returns: `false` if the job is no world's and must go where it was going.
  static func take(_ job: MarblesJobRef, on target: TaskDriver.Target) -> Bool {
    guard Registry.openWorlds.load(ordering: .acquiring) > 0, !ThreadSlot.isBypassing else {
      return false
    }
    let taskID = Jobs.taskID(of: job)
    // Asked before the thread's mark is read, which ends a mark whose task no longer runs here.
    let inTransit = taskID == nil ? TaskDriver.ofTaskInTransit : nil
    let here = TaskDriver.current
    // The root's job enqueued by its world's own work — the wake-up of its sleep, a child that
    // finished: the world's, without a look at the registry.
    if let world = here?.world, world.isRoot(taskID) {
      let (isRouting, top) = world.routing()
      if isRouting {
        return world.takeRootJob(unsafeBitCast(job, to: UnownedJob.self), on: target, onto: top)
      }
    }
    var startedByRootThread = false
    let decision = Registry.shared.withLock { registry -> Decision in
      if let id = taskID {
        if let owned = registry.owners[id] {
          let owner = owned.driver
          return owner.hasLetGo ? .pass : .driver(owner, ordinal: owned.ordinal)
        }
        if let world = registry.world(rootedAt: id) { return .root(world) }
        // A task created by the world's work: the runtime enqueues a new task from its creator.
        // An older task (a runner awaiting the test, a task of another test) is never taken, nor
        // a task that enqueues itself (a hop off an actor whose job another world runs).
        guard let here, !here.hasLetGo, let world = here.world, id > world.watermark,
          Jobs.currentTaskID != id
        else {
          return .pass
        }
        // NB: where the code that creates it is — captured here, in the creating code's
        // enqueue, under the registry's lock (a walk of frame pointers), so that the task is
        // numbered and its start kept in one hold.
        let ordinal = registry.own(id, task: job, by: here, start: StartSites.capture())
        startedByRootThread = ThreadSlot.isRootThreadCode
        return .driver(here, ordinal: ordinal)
      }
      // An actor's or a continuation's job belongs to the work that enqueues it — or, where no
      // task is current, to the task in transit here.
      guard let owner = here ?? inTransit, !owner.hasLetGo, owner.world != nil
      else { return .pass }
      return .driver(owner, ordinal: nil)
    }
    switch decision {
    case .driver(let driver, let ordinal):
      // NB: a job enqueued as a task of the world is in transit here (the switch that ends the
      // job that opened the world, onto an actor) is the world's own move, not a resumption from
      // outside.
      if here == nil, inTransit == nil { driver.noteResumptionFromOutside() }
      if startedByRootThread, let id = taskID { driver.world?.addCoRoot(id) }
      driver.makeReady(unsafeBitCast(job, to: UnownedJob.self), on: target, ordinal: ordinal)
      return true
    case .root(let world):
      return world.takeRootJob(unsafeBitCast(job, to: UnownedJob.self), on: target, onto: world.top)
    case .pass:
      return false
    }
  }

  /// The driver whose virtual time the current task lives in — for a standard sleep it starts:
  /// the owner of the task, its world's top scheduler for a root, or the world whose work runs
  /// here (a task that runs inside world work without having been enqueued: the first steps of a
  /// `Task.immediate`), which then owns it.
  static func driver(ofCurrentTask task: MarblesJobRef) -> TaskDriver? {
    guard Registry.openWorlds.load(ordering: .acquiring) > 0, !ThreadSlot.isBypassing else {
      return nil
    }
    let id = swift_task_getJobTaskId(task)
    let here = TaskDriver.current
    // The root, run by its world's loop: the world's top scheduler, as the registry would say.
    if let world = here?.world, world.isRoot(id) {
      let (isRouting, top) = world.routing(numberingTheRoot: id)
      if isRouting { return top }
    }
    // NB: a task the registry owns, or takes here, is numbered by it; the root is numbered now.
    let (driver, rootOf) = Registry.shared.withLock { registry -> (TaskDriver?, World?) in
      if let owner = registry.owners[id]?.driver { return (owner.hasLetGo ? nil : owner, nil) }
      if let world = registry.world(rootedAt: id) { return (world.top, world) }
      guard let here, !here.hasLetGo, let world = here.world, id > world.watermark else {
        return (nil, nil)
      }
      registry.own(id, task: task, by: here)
      return (here, nil)
    }
    if driver != nil { rootOf?.number(id) }
    return driver
  }

  /// The driver whose time the code running here reads: the one whose work this thread runs, or
  /// the driver of the current task.
  static var currentDriver: TaskDriver? {
    if let here = TaskDriver.current { return here.hasLetGo ? nil : here }
    guard let task = Jobs.currentTask else { return nil }
    return driver(ofCurrentTask: task)
  }
}

extension World {
  /// The open world whose code runs here: the world of the work this thread runs, or of the
  /// current task.
  package static var current: World? {
    if let driver = TaskDriver.current, !driver.hasLetGo { return driver.world }
    guard Registry.openWorlds.load(ordering: .acquiring) > 0 else { return nil }
    guard let task = Jobs.currentTaskID else {
      let thread = ThreadSlot.threadID
      return Registry.shared.withLock { $0.world(rootedAtThread: thread) }
    }
    return Registry.shared.withLock { $0.world(ofTask: task) }
  }

  /// The world a new scheduler joins: the one open here, or one opened now for the test that is
  /// running (by its task, or its thread where no task is current), or, outside any test, one of
  /// the scheduler's own, rooted at the code that made it (a tool's, a benchmark's, a detached
  /// task's) — but at nothing in a test runner where no task is current: a scheduler XCTest
  /// makes as a test case's property between tests must not take its runner's thread.
  static func forNewScheduler() -> World {
    if let world = current, world.isOpen { return world }
    let test = TestFramework.runningTest
    let opening: Opening = test.map { .test($0) } ?? .outsideTests
    if test == nil, TestFramework.isTestRunner, Jobs.currentTask == nil {
      return open(root: .none, rootTask: nil, opening: opening)
    }
    if let task = Jobs.currentTask {
      return open(root: .task(swift_task_getJobTaskId(task)), rootTask: task, opening: opening)
    }
    return open(root: .thread(ThreadSlot.threadID), rootTask: nil, opening: opening)
  }
}
