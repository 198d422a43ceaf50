import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// One test's virtual time: opened with the test, closed with it.
///
/// The rules (the article "How it works" explains the machinery):
///
/// - A world has a **root**: the task that opened it (the test function's task, or the one that
///   called `withVirtualTime`), or — for a synchronous opening — the thread that did, for the
///   length of the call. Outside any test a world has no root and holds only what its schedulers
///   run.
/// - It holds every task, job, sleep, reading of time and `asyncAfter` started from inside it:
///   a task belongs to the world whose work enqueued it first (the runtime enqueues a new task
///   from its creator), and a job that is not a task's (an actor's) to the world whose work
///   enqueues it. Belonging travels with the task; a thread belongs to a world only while it runs
///   that world's work.
/// - It has a **stack of schedulers** on **one timeline**. The first is its clock, kept until the
///   world closes (so `_ = TestScheduler()` keeps the test virtual); one made inside it is pushed,
///   starting where the world's time is (a reading never goes back), and popped when it is
///   released, handing its time on. New tasks belong to the scheduler on top.
/// - **Awaits drive**: while the root waits and no job of the world is ready, the world moves to
///   the next due action of its schedulers, first on the timeline, and runs it, and repeats until
///   the root can go on; the root's own wake-up runs last at its tick (the same instant).
///   Explicit `advance`, `run` and `flush` keep their meaning, and mix with awaits.
/// - **Deadlock**: when the root waits, nothing is ready or due, and no work of the world waits
///   on something outside it, the test fails at once, naming every waiting task and what it waits
///   for. Waiting on something outside is given ``stallTimeout`` of real time. Either way the
///   failure is recorded first, then the world's work is cancelled so that the root's waits end.
/// - It **closes** when its test or closure ends, whoever still holds a scheduler: pending work is
///   cancelled, and every reading, sleep and task of the process is real again.
package final class World: @unchecked Sendable {
  // NB: @unchecked: every mutable field is behind `state`; the rest is set once.

  /// Whose code opened the world.
  package enum Root: Sendable, Equatable {
    /// A task: the world's awaits drive.
    case task(UInt64)
    /// A thread with no task, or synchronous code, for the length of a call.
    case thread(UInt)
    /// No root: a scheduler made outside any test.
    case none
  }

  /// What opened the world, for its close.
  package enum Opening: Sendable, Equatable {
    /// `withVirtualTime` or the trait: closed when the call returns.
    case scope
    /// A `TestScheduler()` made in a test with no world open: closed when the test ends.
    case test(RunningTest)
    /// A `TestScheduler()` made outside any test: closed when its last scheduler is released.
    case outsideTests
  }

  let root: Root
  let opening: Opening
  /// Tasks with a larger id were created after the world opened.
  let watermark: UInt64
  /// The last number given to a task of the world (``nextOrdinal()``): the registry numbers the
  /// tasks it takes for the world's drivers under its own lock, the world its root under its.
  let ordinals = Atomic(0)
  /// The root task, retained while the world is open, whose status says whether it runs, waits
  /// or has finished.
  nonisolated(unsafe) let rootTask: MarblesJobRef?
  /// The world's virtual clock: what every reading of time in its work reads, on its one
  /// timeline. Its tick 0 is the world's opening; each scheduler brings it to where it is.
  let clock = VirtualClockSlot()
  /// Where the world drives while its root waits: a queue of its own, or — for a world opened by
  /// a root that runs on a closed world's loop (the next world of a test that opens one after
  /// another) — that world's queue, behind whose running turn the new world's first turn then
  /// waits on the same thread, instead of waking another thread for it.
  let loop: DispatchQueue
  let state = Locked(State())
  /// Wakes a loop that waits in real time for work from outside.
  let arrivals = DispatchSemaphore(value: 0)
  /// Reports the world's failures on its test, from whichever thread finds them.
  let reporter: (any WorldReporter)?
  /// Whether the job that opened the world (on a thread of its own) has ended.
  private let hasOpeningJobEnded = Atomic(false)
  /// Whether the root is the main thread (XCTest's), whose run loop the world turns in.
  let isRootOnTheMainThread: Bool
  /// Whether the root is a task whose opening job runs on the main queue (a `@MainActor` test):
  /// its world steps on the main thread from the moment that job suspends.
  let isRootOnTheMainQueue: Bool
  /// Whether the first turn of a root on the main queue is posted.
  let hasPostedTheFirstTurn = Atomic(false)
  /// How many jobs of the world a turn on the root thread handed to the loop's queue and that have
  /// not run to their end: runnable work, which time never moves past.
  let jobsUnderWay = Atomic(0)

  struct State {
    /// The schedulers' drivers, bottom first.
    var drivers: [TaskDriver] = []
    /// The root's stack: the drivers made by the root, bottom first. Its top owns the root's
    /// jobs and the tasks the root starts.
    var rootStack: [TaskDriver] = []
    /// The drivers made by other tasks of the world, each with the task that made it and the
    /// driver that task had before: the task and what it starts belong to the new one until it is
    /// released.
    var madeByTasks: [ObjectIdentifier: (task: UInt64, previous: TaskDriver)] = [:]
    /// The first scheduler's engine: the world's clock until it closes.
    var anchor: SchedulerCore?
    var isClosed = false
    /// Whether the root's current job runs on a thread of its own (the job that opened the
    /// world), rather than on the world's loop.
    var isRootRunningElsewhere = true
    var hasRootFinished = false
    /// How many of the root's jobs are ready or running on the loop.
    var rootJobs = 0
    /// Whether the loop is turning, or scheduled to.
    var isLoopActive = false
    /// Whether something arrived since the loop last looked.
    var hasNews = false
    /// How many steps the loop ran since the root last ran.
    var stepsSinceRoot = 0
    /// When the ``SchedulerCore/stepsBeforeTheClock``th of them ran, in real nanoseconds (the
    /// step limit's time budget).
    var stepsSinceRootStart: Int64 = 0
    /// Whether the world gave its work up (a deadlock, a step limit, waiting outside too long).
    var hasGivenUp = false
    /// Whether the loop waits in real time on ``World/arrivals``.
    var isWaitingForArrivals = false
    /// The tasks a thread root started itself (XCTest's task for an `async` test method, a
    /// `Task {}` of a synchronous test): the world moves its clock for them while the root thread
    /// sits in its run loop.
    var coRoots: [UInt64] = []
    /// Whether a turn on the root thread's run loop is posted.
    var isRootThreadTurnPosted = false
    /// How many steps the loop ran since the world's time last moved, and when the
    /// ``SchedulerCore/stepsBeforeTheClock``th of them ran: a livelock's budget.
    var stepsAtOneTime = 0
    var stepsAtOneTimeStart: Int64 = 0
    /// The clocks' moves (``TaskDriver/timeMoves``, summed) when the loop last looked.
    var timeMovesSeen = 0
    /// How many jobs each task ran since the world's time last moved, counted once a livelock is
    /// in sight (past ``SchedulerCore/stepsBeforeTheClock`` steps), for its report.
    var jobsAtOneTime: [UInt64: Int] = [:]
    /// Whether the root's job sits in the main thread's run loop, in a synchronous wait.
    var isRootInARunLoop = false
    /// Whether the loop's thread runs the world's work for a root that sits in its run loop.
    var isDrivingForABlockedRoot = false
    /// When, in real nanoseconds, the world's code on the main thread last kept reading one
    /// instant.
    var lastBusyWait: Int64 = .min / 2
    /// Since when, in real nanoseconds, the root thread's turns have found nothing to run.
    var idleSince: Int64?
    /// How many of the world's wake-ups of threads outside it (``VirtualClockSlot/signals``) an
    /// idle decision has given their chance to answer.
    var signalsAnswered: UInt64 = 0
    /// What the world keeps of its root, and of each task whose scheduler was released: the
    /// registry keeps the rest (``Registry/Owned/ordinal``, ``TaskStart``) while a driver owns
    /// them.
    var taken = TaskTable<TakenTask>()
    /// Whether the root has its number (``routing(numberingTheRoot:)``).
    var isRootNumbered = false
    /// How many of the world's waits are for the process's exploration turn
    /// (``ExplorationTurns``): another test's exploration, outside the world, which is neither a
    /// deadlock nor a stall.
    var turnWaits = 0
  }

  private init(root: Root, rootTask: MarblesJobRef?, opening: Opening) {
    self.root = root
    self.opening = opening
    // NB: made before the world is registered, so that the reporter's own task is none of it.
    reporter = opening == .outsideTests ? nil : TestFramework.makeReporter()
    isRootOnTheMainThread = root != .none && ThreadSlot.isMainThread
    if case .task = root {
      isRootOnTheMainQueue = MainQueue.isCurrent
    } else {
      isRootOnTheMainQueue = false
    }
    if let rootTask { Jobs.retain(rootTask) }
    self.rootTask = rootTask
    watermark = Jobs.nextTaskID()
    loop = World.closedLoopHere ?? DispatchQueue(label: "marbles.world")
  }

  /// The world whose loop turns on this thread (unretained: set only while the turn runs).
  private static let turningHere = ThreadLocalSlot()

  /// Runs a turn of the world's loop, noting the world as this thread's turning one meanwhile.
  func turning(_ turn: () -> Void) {
    let outer = World.turningHere.value
    World.turningHere.set(Unmanaged.passUnretained(self).toOpaque())
    defer { World.turningHere.set(outer) }
    turn()
  }

  /// The loop queue of the world whose turn runs on this thread, if that world is closed: its
  /// turn ends when the job running in it returns, and nothing of it runs on its queue after.
  private static var closedLoopHere: DispatchQueue? {
    guard let pointer = turningHere.value else { return nil }
    let world = Unmanaged<World>.fromOpaque(pointer).takeUnretainedValue()
    return world.isOpen ? nil : world.loop
  }

  deinit {
    if let rootTask { Jobs.release(rootTask) }
  }

  // MARK: Finding and opening

  /// Opens a world for the code running here: the current task, or this thread where no task is
  /// current.
  package static func openScope() -> World {
    if let task = Jobs.currentTask {
      return open(root: .task(swift_task_getJobTaskId(task)), rootTask: task, opening: .scope)
    }
    return open(root: .thread(ThreadSlot.threadID), rootTask: nil, opening: .scope)
  }

  static func open(root: Root, rootTask: MarblesJobRef?, opening: Opening) -> World {
    RuntimeHooks.worldOpens()
    EndingWatch.noteParent()
    installRunLoopHandler()
    // NB: a report's snapshot of the root's bindings is taken where no task is current.
    if rootTask != nil { TaskLocals.findTheHeadOnce() }
    let world = World(root: root, rootTask: rootTask, opening: opening)
    Registry.shared.withLock { $0.add(world) }
    Watchdog.start()
    if case .test(let test) = opening { TestFramework.closeWhenTestEnds(world, test) }
    // The loop starts by waiting for the job that opened the world to suspend.
    world.wake()
    return world
  }

  /// Whether the world is still open.
  package var isOpen: Bool {
    state.withLock { !$0.isClosed }
  }

  /// Whether the world is open and has not given its work up: registered, for the routing
  /// decision.
  var isRouting: Bool {
    state.withLock { !$0.isClosed && !$0.hasGivenUp }
  }

  /// Whether the world is routing (``isRouting``) and, if it is, the scheduler on top of the
  /// root's stack (``top``) — under one hold of the world's lock: the routing decision asks both
  /// for every job and every sleep of the root. Numbers the root, once, if asked (`root`).
  func routing(numberingTheRoot root: UInt64? = nil) -> (isRouting: Bool, top: TaskDriver?) {
    state.withLock { state in
      guard !state.isClosed, !state.hasGivenUp else { return (false, nil) }
      if let root { numberRoot(root, in: &state) }
      return (true, state.rootStack.last ?? state.drivers.first)
    }
  }

  /// Whether the world's awaits drive: its root is a task.
  var hasTaskRoot: Bool {
    if case .task = root { return true }
    return false
  }

  // MARK: The root

  /// Whether task `id` is this world's root.
  func isRoot(_ id: UInt64?) -> Bool {
    guard let id, case .task(let root) = root else { return false }
    return id == root
  }

  /// The root's status, if it is a task.
  var rootStatus: Jobs.Status? {
    // NB: not `Optional.map`, a generic call in a debug build, on every step.
    guard let rootTask else { return nil }
    return Jobs.status(of: rootTask)
  }

  /// A job of the root is ready: the loop runs it. The job that opened the world has ended.
  func rootJobIsReady() {
    state.withLock { state in
      state.rootJobs += 1
      state.isRootRunningElsewhere = false
      state.stepsSinceRoot = 0
    }
    openingJobEnded()
    wake()
  }

  /// Numbers the root (task `id`), unless it has its number: the registry numbers the tasks the
  /// world's drivers own (``Registry/own(_:task:by:start:)``).
  func number(_ id: UInt64) {
    state.withLock { numberRoot(id, in: &$0) }
  }

  /// Gives the root (task `id`) the world's next number, once.
  private func numberRoot(_ id: UInt64, in state: inout State) {
    guard !state.isRootNumbered else { return }
    state.taken[id, default: TakenTask()].number(by: self)
    state.isRootNumbered = true
  }

  /// The next number a task of the world gets, in the order the world took them.
  func nextOrdinal() -> Int {
    ordinals.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// Keeps the numbers and starts of tasks the registry forgot as their scheduler went: a report
  /// may still name them.
  func keep(_ forgotten: [ForgottenTask]) {
    guard !forgotten.isEmpty else { return }
    state.withLock { state in
      for task in forgotten {
        state.taken[task.id] = TakenTask(ordinal: task.ordinal, start: task.start)
      }
    }
  }

  /// The function task `id` was started in, where it is known: named from its start frames once,
  /// then kept with them.
  func startFunction(of id: UInt64) -> String? {
    let owned = Registry.shared.withLock { $0.start(of: id, in: self) }
    guard let start = owned ?? state.withLock({ $0.taken[id]?.start }) else { return nil }
    if let known = start.function { return known }
    let function = StartSites.function(startedFrom: start.frames.addresses)
    // NB: not for a task that ended meanwhile.
    if owned != nil {
      Registry.shared.withLock { $0.noteStartFunction(function, of: id) }
    } else {
      state.withLock { $0.taken[id]?.start?.function = .some(function) }
    }
    return function
  }

  /// Task `id`'s number in the world, if it has one.
  func ordinal(of id: UInt64) -> Int? {
    if !isRoot(id), let owned = Registry.shared.withLock({ $0.ordinal(of: id, in: self) }) {
      return owned
    }
    return state.withLock { $0.taken[id]?.ordinal }
  }

  /// A wait for the process's exploration turn begins: until it ends, the world waits for it as
  /// long as it takes.
  func beginsWaitingForATurn() {
    state.withLock { $0.turnWaits += 1 }
  }

  /// A wait for the exploration turn ended.
  func endsWaitingForATurn() {
    state.withLock { $0.turnWaits -= 1 }
    wake()
  }

  /// Whether the world waits for the exploration turn.
  var isWaitingForATurn: Bool {
    state.withLock { $0.turnWaits > 0 }
  }

  /// How many tasks the world has numbered so far.
  var numberedTasks: Int {
    ordinals.load(ordering: .relaxed)
  }

  /// A task the root thread started itself: see ``State/coRoots``.
  func addCoRoot(_ id: UInt64) {
    state.withLock { $0.coRoots.append(id) }
    wake()
  }

  /// Whether the job that opened the world may still be running on the thread it opened on.
  var isOpeningJobRunning: Bool {
    !hasOpeningJobEnded.load(ordering: .acquiring)
  }

  /// The job that opened the world has ended: a mark of its thread stands for nothing any more.
  func openingJobEnded() {
    guard !hasOpeningJobEnded.exchange(true, ordering: .acquiringAndReleasing) else { return }
    clock.endOpening()
  }

}

/// What a world keeps of a task it numbered that no driver owns: its root, and a task whose
/// scheduler was released.
struct TakenTask {
  /// Its number in the order the world took it ("task 1", "task 2"…, in reports); 0 until
  /// numbered.
  var ordinal = 0
  /// Where the code that created it was, for a task the world's work created.
  var start: TaskStart?

  /// Gives the task `world`'s next number, unless it has one.
  mutating func number(by world: World) {
    guard ordinal == 0 else { return }
    ordinal = world.nextOrdinal()
  }
}
