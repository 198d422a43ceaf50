import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// A world's stack of schedulers: the first is its clock until it closes; one made inside it is
/// pushed — on the world's timeline — and popped when it is released.
extension World {

  /// Pushes a new scheduler's driver: from now on the code that made it — the root, or a task of
  /// the world — reads its clock, and the tasks that code starts belong to it. The first is the
  /// world's clock for as long as the world is open.
  func push(_ driver: TaskDriver) {
    RuntimeHooks.schedulerJoins()
    let maker = Jobs.currentTaskID
    let previous: TaskDriver? =
      if let maker, !isRoot(maker), Registry.shared.withLock({ $0.world(ofTask: maker) }) === self {
        Registry.shared.withLock { $0.reown(maker, by: driver) }
      } else {
        nil
      }
    placeOnTheTimeline(driver)
    let (isOpen, isFirst) = state.withLock { state -> (Bool, Bool) in
      guard !state.isClosed else { return (false, false) }
      if state.anchor == nil, opening != .outsideTests { state.anchor = driver.core }
      let isFirst = state.drivers.isEmpty
      state.drivers.append(driver)
      if let maker, let previous {
        state.madeByTasks[ObjectIdentifier(driver)] = (maker, previous)
      } else {
        state.rootStack.append(driver)
      }
      return (true, isFirst)
    }
    guard isOpen else { return }
    noteTopsStallTimeout()
    enterHere(driver, madeByTask: previous != nil)
    if isFirst, ScheduleRun.exploresEveryTest { exploreOrWarn(driver) }
  }

  /// Under `MARBLES_EXPLORE=N` (or `MARBLES_REPLAY`), a test whose world opened in its body:
  /// an XCTest test is explored when its run ends, run again whole once per schedule; another
  /// says — in a warning on the test, at the first scheduler's site — that its world, which no
  /// schedule follows, runs one order only: only a trait can run a Swift Testing test's body
  /// again. A run that asked for every test explored never passes one unexplored in silence. (A
  /// scheduler's own random walk, `MARBLES_EXPLORE_EVERY_SCHEDULER`, is one order too.)
  private func exploreOrWarn(_ driver: TaskDriver) {
    guard driver.schedule?.isTheSchedulersOwn ?? true, opening != .outsideTests,
      let site = driver.core?.site,
      let test = TestFramework.runningTest, let reporter
    else { return }
    // A world made before XCTest runs a test (a scheduler in a test case's property, made as
    // XCTest makes its test cases) is no test's: it closes as the first test starts. (Where
    // XCTest tests run again, the watcher has seen the run from the start: "" is no test.)
    if case .xcTest("") = test, Platform.runsXCTestsAgain { return }
    // An XCTest test is explored when its run ends: run again, whole, once per schedule.
    if case .xcTest = test, let bridge = TestFramework.bridge,
      bridge.exploreWhenTheTestEnds(ScheduleRun.exploreEveryTest ?? 1, at: site)
    {
      return
    }
    guard let count = ScheduleRun.exploreEveryTest else { return }
    let opened =
      opening == .scope
      ? "in `withVirtualTime`" : "at the test's first `TestScheduler()`"
    let remedy =
      switch test {
      case .swiftTesting:
        " — only a trait can run a test's body again. To explore it, give the test, or its "
          + "suite, `.virtualTime` (the body then runs once per schedule) or "
          + "`.exploringSchedules(n)`."
      case .xcTest:
        " — Marbles cannot make its test case afresh here, to run the test again (on Apple "
          + "platforms it does not). To explore it, run the code in `exploreSchedules(n) { … }` "
          + "in the test's body."
      }
    reporter.warn(
      "MARBLES_EXPLORE=\(count) did not explore this test: its world opened \(opened), where one "
        + "order of its work runs\(remedy)", at: site)
  }

  /// Gives the world's clock the top scheduler's stall timeout as how long a thread may read one
  /// frozen instant.
  private func noteTopsStallTimeout() {
    if let top { clock.setFrozenLimit(top.stallTimeout) }
  }

  /// Pops a scheduler that is released: below it, the one the code that made it had before. The
  /// world's first scheduler stays until the world closes.
  func pop(_ driver: TaskDriver) {
    let end = driver.core?.timelineNow ?? 0
    let (madeBy, top, isEmpty) = state.withLock {
      state -> ((task: UInt64, previous: TaskDriver)?, TaskDriver?, Bool) in
      state.drivers.removeAll { $0 === driver }
      state.rootStack.removeAll { $0 === driver }
      let madeBy = state.madeByTasks.removeValue(forKey: ObjectIdentifier(driver))
      return (madeBy, state.rootStack.last, state.drivers.isEmpty)
    }
    // The world's time went on with the scheduler that goes: the others go on from there.
    catchUp(to: end)
    noteTopsStallTimeout()
    if let madeBy {
      _ = Registry.shared.withLock { $0.reown(madeBy.task, by: madeBy.previous) }
      if TaskDriver.current === driver { madeBy.previous.enterRunningJob(of: Jobs.currentTask) }
    } else if let top, TaskDriver.current === driver {
      enterHere(top, madeByTask: false)
    }
    if isEmpty, opening == .outsideTests { close() }
  }

  /// Whether `core` is the world's clock, kept until the world closes.
  func keeps(_ core: SchedulerCore) -> Bool {
    state.withLock { !$0.isClosed && $0.anchor === core }
  }

  /// Whether the code running here is `driver`'s world's: its root, or work it drives (always
  /// true for a driver with no world).
  static func isRunningCode(of driver: TaskDriver) -> Bool {
    guard let world = driver.world else { return true }
    return current === world
  }

  /// The scheduler on top of the root's stack: it owns the root's jobs, and its clock moves
  /// while the root waits.
  var top: TaskDriver? {
    state.withLock { $0.rootStack.last ?? $0.drivers.first }
  }

  /// Every scheduler of the world, top first.
  var drivers: [TaskDriver] {
    state.withLock { $0.drivers.reversed() }
  }

  /// Makes the code running on this thread the world's, with `driver`'s clock: for the rest of
  /// the root's job that opened the world (it runs on a thread of its own), or of the synchronous
  /// call. The loop marks the jobs it runs itself.
  private func enterHere(_ driver: TaskDriver, madeByTask: Bool) {
    if madeByTask {
      driver.enterRunningJob(of: Jobs.currentTask)
      return
    }
    switch root {
    case .task(let id) where Jobs.currentTaskID == id:
      driver.enterRunningJob(of: Jobs.currentTask)
    case .thread(let thread) where thread == ThreadSlot.threadID && Jobs.currentTask == nil:
      driver.enterRunningJob(of: nil)
    case .thread(let thread) where thread == ThreadSlot.threadID:
      driver.enterRunningJob(of: Jobs.currentTask)
    default:
      break
    }
  }
}
