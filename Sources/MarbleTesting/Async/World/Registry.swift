import CMarbleRuntime
@_spi(Internals) import Signals
import Synchronization

/// The open worlds, their roots, and the tasks each scheduler owns: what the routing decision
/// reads when a job is not run by world work on its own thread.
struct Registry {
  /// A task a driver owns: the driver (unretained: every entry naming a driver is removed when
  /// the driver goes), and the task, retained until it completes so that a report can read what
  /// it waits for and a give-up can cancel it.
  struct Owned {
    private let unmanaged: Unmanaged<TaskDriver>
    nonisolated(unsafe) let task: MarblesJobRef

    init(_ driver: TaskDriver, task: MarblesJobRef) {
      unmanaged = .passUnretained(driver)
      self.task = task
    }

    var driver: TaskDriver { unmanaged.takeUnretainedValue() }

    /// Whether `driver` owns the task (compared by address: nothing is retained).
    func isOwned(by driver: TaskDriver) -> Bool {
      unmanaged.toOpaque() == Unmanaged.passUnretained(driver).toOpaque()
    }
  }

  /// The tasks the drivers own, by task id.
  private(set) var owners = TaskTable<Owned>()
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

  /// Records that `driver` owns `task`, whose id is `id`, retaining it.
  mutating func own(_ id: UInt64, task: MarblesJobRef, by driver: TaskDriver) {
    guard owners[id] == nil else { return }
    Jobs.retain(task)
    // NB: taken as it is created, in its parent's code.
    if Jobs.isAsyncLetChild(task), let parent = Jobs.currentTaskID, parent != id {
      noteAsyncLetChild(id, of: parent)
    }
    owners[id] = Owned(driver, task: task)
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
    owners[id] = Owned(driver, task: entry.task)
    return previous
  }

  /// Forgets task `id`, which completed; returns the task to release.
  mutating func forget(_ id: UInt64) -> MarblesJobRef? {
    guard let entry = owners.removeValue(forKey: id) else { return nil }
    // NB: a task that ended has left every `async let` scope of its own.
    if asyncLetChildren.removeValue(forKey: id) != nil { noteAsyncLetChildrenChanged() }
    return entry.task
  }

  /// Forgets every task `driver` owns; returns the tasks to release.
  mutating func forgetTasks(of driver: TaskDriver) -> [MarblesJobRef] {
    // NB: found by a look at every owned task, which a driver's release can afford: an index by
    // driver cost every task a world takes two more lookups and an allocation.
    let tasks = owners.sorted { $0.isOwned(by: driver) }.compactMap { entry in
      owners.removeValue(forKey: entry.id)?.task
    }
    // NB: a parent none of whose children is owned any more has nothing to let go.
    asyncLetChildren.removeAll { _, children in
      !children.contains { owners[$0] != nil }
    }
    noteAsyncLetChildrenChanged()
    return tasks
  }

  /// Task `id`, if `driver` owns it.
  func task(_ id: UInt64, ownedBy driver: TaskDriver) -> MarblesJobRef? {
    guard let owned = owners[id], owned.driver === driver else { return nil }
    return owned.task
  }

  /// The tasks `driver` owns, with their ids.
  func tasks(of driver: TaskDriver) -> [(id: UInt64, task: MarblesJobRef)] {
    owners.sorted { $0.isOwned(by: driver) }.map { ($0.id, $0.value.task) }
  }
}
