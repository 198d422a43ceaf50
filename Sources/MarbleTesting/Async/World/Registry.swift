import CMarbleRuntime
@_spi(Internals) import Signals
import Synchronization

/// Where a task a world's work created was started, and the function a report named from it.
struct TaskStart {
  var frames: StartSites.Frames
  /// `.some(nil)`: named, not known. The idle decision's look at what waits outside names tasks
  /// at every turn, and a name costs symbol lookups.
  var function: String??
}

/// A task the registry forgot as its driver went: to release, and what its world keeps of it.
struct ForgottenTask {
  let id: UInt64
  nonisolated(unsafe) let task: MarblesJobRef
  let ordinal: Int
  let start: TaskStart?
}

/// The open worlds, their roots, and the tasks each scheduler owns: what the routing decision
/// reads when a job is not run by world work on its own thread.
struct Registry {
  /// A task a driver owns: the driver (unretained: every entry naming a driver is removed when
  /// the driver goes), and the task, retained until it completes so that a report can read what
  /// it waits for and a give-up can cancel it.
  struct Owned {
    private let unmanaged: Unmanaged<TaskDriver>
    nonisolated(unsafe) let task: MarblesJobRef
    /// Its number in its world ("task 2" in reports; a schedule's run ordinals), given as the
    /// driver took it.
    let ordinal: Int

    init(_ driver: TaskDriver, task: MarblesJobRef, ordinal: Int) {
      unmanaged = .passUnretained(driver)
      self.task = task
      self.ordinal = ordinal
    }

    var driver: TaskDriver { unmanaged.takeUnretainedValue() }

    /// Whether `driver` owns the task (compared by address: nothing is retained).
    func isOwned(by driver: TaskDriver) -> Bool {
      unmanaged.toOpaque() == Unmanaged.passUnretained(driver).toOpaque()
    }
  }

  /// The tasks the drivers own, by task id.
  private(set) var owners = TaskTable<Owned>()
  /// Where each owned task that its world's work created was started (``StartSites``), by task
  /// id, for reports; with the function a report named from it, once one has.
  ///
  /// NB: beside ``owners``, not in its entries: an entry of three words is copied at no cost,
  /// and the routing decision reads one for every job (with the start in it, a world's close,
  /// which looks at every entry, took a tenth longer in an explored schedule).
  private var starts = TaskTable<TaskStart>()
  /// The `async let` children of each task, by the parent's id, until they are let go.
  private var asyncLetChildren = TaskTable<[UInt64]>()
  /// The open worlds whose root is a task, by the root's id.
  private var roots = TaskTable<World>()
  /// The open worlds whose root is a thread with no task, by the thread.
  private var threadRoots: [UInt: World] = [:]
  /// Every open world.
  private(set) var worlds: [ObjectIdentifier: World] = [:]

  static let shared = Locked(Registry())
  /// How many worlds are open: with none, every job passes without a look at the registry.
  static let openWorlds = Atomic(0)
  /// Whether a task has `async let` children to let go: with none, a job runs without a look at
  /// the registry for them (``forgetEndedAsyncLetChildren(of:)``).
  static let hasAsyncLetChildren = Atomic(false)

  /// Keeps ``hasAsyncLetChildren`` true to the map, after each change of it.
  private func noteAsyncLetChildrenChanged() {
    Self.hasAsyncLetChildren.store(!asyncLetChildren.isEmpty, ordering: .releasing)
  }

  mutating func add(_ world: World) {
    worlds[ObjectIdentifier(world)] = world
    switch world.root {
    case .task(let id): roots[id] = world
    case .thread(let thread): threadRoots[thread] = world
    case .none: break
    }
    Self.openWorlds.add(1, ordering: .releasing)
  }

  mutating func remove(_ world: World) {
    guard worlds.removeValue(forKey: ObjectIdentifier(world)) != nil else { return }
    switch world.root {
    case .task(let id) where roots[id] === world: roots[id] = nil
    case .thread(let thread) where threadRoots[thread] === world: threadRoots[thread] = nil
    default: break
    }
    Self.openWorlds.subtract(1, ordering: .releasing)
  }

  /// The open world whose root is task `id`.
  func world(rootedAt id: UInt64) -> World? {
    roots[id]
  }

  /// The open world whose root is `thread`, where no task is current.
  func world(rootedAtThread thread: UInt) -> World? {
    threadRoots[thread]
  }

  /// The open world task `id` belongs to: as its root, or as a task one of its drivers owns.
  func world(ofTask id: UInt64) -> World? {
    if let world = roots[id] { return world }
    guard let owner = owners[id]?.driver, !owner.hasLetGo else { return nil }
    return owner.world
  }

  /// Records that `driver` owns `task`, whose id is `id`, retaining it, and gives it the next
  /// number of the driver's world.
  ///
  /// - Parameter start: Where the code that created it is, for a task the world's work created.
  /// - Returns: The task's number in its world, if `driver` owns it (now or already).
  @discardableResult
  mutating func own(
    _ id: UInt64, task: MarblesJobRef, by driver: TaskDriver, start: StartSites.Frames? = nil
  ) -> Int? {
    if let owned = owners[id] { return owned.isOwned(by: driver) ? owned.ordinal : nil }
    Jobs.retain(task)
    // NB: taken as it is created, in its parent's code.
    if Jobs.isAsyncLetChild(task), let parent = Jobs.currentTaskID, parent != id {
      noteAsyncLetChild(id, of: parent)
    }
    let ordinal = driver.world?.nextOrdinal() ?? 0
    owners[id] = Owned(driver, task: task, ordinal: ordinal)
    driver.ownedTaskCount += 1
    if let start { starts[id] = TaskStart(frames: start) }
    return ordinal
  }

  /// Task `id`'s entry, if a driver of `world` owns it.
  private func owned(_ id: UInt64, in world: World) -> Owned? {
    guard let owned = owners[id], owned.driver.world === world else { return nil }
    return owned
  }

  /// Task `id`'s number, if a driver of `world` owns it.
  func ordinal(of id: UInt64, in world: World) -> Int? {
    owned(id, in: world)?.ordinal
  }

  /// Where task `id` was started, if a driver of `world` owns it and its start is known.
  func start(of id: UInt64, in world: World) -> TaskStart? {
    owned(id, in: world) == nil ? nil : starts[id]
  }

  /// Keeps the function a report named as task `id`'s start, if the task is still owned.
  mutating func noteStartFunction(_ function: String?, of id: UInt64) {
    starts[id]?.function = .some(function)
  }

  /// Notes that task `id` is an `async let` child of task `parent`: its parent's scope frees it,
  /// so it is let go before the parent runs on (``forgetEndedAsyncLetChildren(of:)``).
  mutating func noteAsyncLetChild(_ id: UInt64, of parent: UInt64) {
    asyncLetChildren[parent, default: []].append(id)
    noteAsyncLetChildrenChanged()
  }

  /// Forgets the `async let` children of task `parent` that have ended, returning them to
  /// release: called before each job of the parent, which may leave their scope and free them.
  mutating func forgetEndedAsyncLetChildren(of parent: UInt64) -> [(
    id: UInt64, task: MarblesJobRef
  )] {
    guard let children = asyncLetChildren[parent] else { return [] }
    var ended: [(id: UInt64, task: MarblesJobRef)] = []
    var left: [UInt64] = []
    for child in children {
      guard let entry = owners[child] else { continue }
      if Jobs.status(of: entry.task).isComplete {
        if let task = forget(child) { ended.append((child, task)) }
      } else {
        left.append(child)
      }
    }
    asyncLetChildren[parent] = left.isEmpty ? nil : left
    noteAsyncLetChildrenChanged()
    return ended
  }

  /// Moves task `id` to `driver` (a scheduler the task made), returning the driver it had.
  mutating func reown(_ id: UInt64, by driver: TaskDriver) -> TaskDriver? {
    guard let entry = owners[id] else { return nil }
    let previous = entry.driver
    owners[id] = Owned(driver, task: entry.task, ordinal: entry.ordinal)
    previous.ownedTaskCount -= 1
    driver.ownedTaskCount += 1
    return previous
  }

  /// Forgets task `id`, which completed; returns the task to release.
  mutating func forget(_ id: UInt64) -> MarblesJobRef? {
    guard let entry = owners.removeValue(forKey: id) else { return nil }
    entry.driver.ownedTaskCount -= 1
    starts.removeValue(forKey: id)
    // NB: a task that ended has left every `async let` scope of its own.
    if asyncLetChildren.removeValue(forKey: id) != nil { noteAsyncLetChildrenChanged() }
    return entry.task
  }

  /// Forgets every task `driver` owns; returns the tasks to release, with the number and start
  /// of each, which its world keeps (``World/keep(_:)``).
  mutating func forgetTasks(of driver: TaskDriver) -> [ForgottenTask] {
    // NB: found by a look at every owned task — every world's, in a parallel run — which a
    // driver's release can afford: an index by driver cost every task a world takes two more
    // lookups and an allocation. A driver that owns none (its tasks ended) looks at nothing: the
    // look is at every slot the table ever grew to, which a test of 20,000 tasks leaves large for
    // the rest of the process (every later world's close took a tenth longer).
    var tasks: [ForgottenTask] = []
    if driver.ownedTaskCount > 0 {
      driver.ownedTaskCount = 0
      tasks = owners.sorted { $0.isOwned(by: driver) }.compactMap { entry -> ForgottenTask? in
        guard let owned = owners.removeValue(forKey: entry.id) else { return nil }
        return ForgottenTask(
          id: entry.id, task: owned.task, ordinal: owned.ordinal,
          start: starts.removeValue(forKey: entry.id))
      }
    }
    // NB: a parent none of whose children is owned any more has nothing to let go.
    if !asyncLetChildren.isEmpty {
      asyncLetChildren.removeAll { _, children in
        !children.contains { owners[$0] != nil }
      }
      noteAsyncLetChildrenChanged()
    }
    return tasks
  }

  /// Task `id`, if `driver` owns it.
  func task(_ id: UInt64, ownedBy driver: TaskDriver) -> MarblesJobRef? {
    guard let owned = owners[id], owned.driver === driver else { return nil }
    return owned.task
  }

  /// The tasks `driver` owns, with their ids.
  func tasks(of driver: TaskDriver) -> [(id: UInt64, task: MarblesJobRef)] {
    guard driver.ownedTaskCount > 0 else { return [] }
    return owners.sorted { $0.isOwned(by: driver) }.map { ($0.id, $0.value.task) }
  }
}
