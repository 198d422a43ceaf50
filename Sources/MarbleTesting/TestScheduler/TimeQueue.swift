import Synchronization

/// A scheduler's time: its clock, in ticks, and its actions in the order they run — by tick; at
/// one tick the harness's (recorders' subscriptions and disposals) first, then the others in the
/// order they were scheduled, then those that run last at their tick (a world's root's
/// wake-ups). A value, kept under the scheduler's lock.
///
/// It knows nothing of tasks or schedules: a wake-up is an action tagged with two numbers, and
/// which of the work due at one tick runs first is decided in `NextStep.swift`.
struct TimeQueue {
  /// The earliest pending action's tick, as read out of the scheduler's lock.
  let earliest: EarliestAction

  /// The earliest pending action's tick (a cancelled one's too; `Int.max` with none), kept as the
  /// actions change, under the scheduler's lock: an explored step asks for the work due now only
  /// when something may be (``SchedulerCore/nextReadyStep()``), without taking the lock for every
  /// job.
  final class EarliestAction: Sendable {
    let tick = Atomic(Int.max)

    /// Whether an action may be due at `now`: `false` only when none is pending at or before it.
    func mayBeDue(at now: Int) -> Bool {
      tick.load(ordering: .acquiring) <= now
    }
  }

  init(earliest: EarliestAction) {
    self.earliest = earliest
  }

  /// The current tick. Moved by `SchedulerCore.setNow(_:in:)`, which moves the virtual clock's
  /// readings with it.
  var now = 0
  /// Orders actions that are not the harness's, and gives every action its unique id.
  private var nextSequence = 0
  /// Orders the harness's actions, all of which sort before every other action at the same tick.
  private var nextHarnessSequence = Int.min
  /// Orders the actions that run last at their tick (the root's wake-ups), after every other
  /// action at the same tick, whenever those were scheduled.
  private var nextLastSequence = TimeQueue.firstLastSequence
  static let firstLastSequence = Int.max / 2
  /// The actions.
  private(set) var actions = ActionHeap() {
    didSet { earliest.tick.store(actions.firstTime ?? .max, ordering: .releasing) }
  }
  /// The action running now, whose follow-up work is one generation later.
  var running: (generation: Int, chainStart: Int)?
  /// The pending actions that wake a sleeping task, by action id, tagged with the task's id and
  /// its number in the run (only under an explored schedule, which may run them before the other
  /// work of their tick).
  private var wakeUps: [Int: WakeUp] = [:]

  /// A wake-up's tag.
  struct WakeUp {
    let task: UInt64
    let ordinal: Int?
  }

  /// An action due now that may go first, with its id and, for a wake-up, its tag.
  struct Due {
    let key: ActionHeap.Key
    let id: Int
    let wakeUp: WakeUp?
  }

  var hasWakeUps: Bool { !wakeUps.isEmpty }

  // MARK: Adding

  /// Adds an action due at `time` (or `delay` ticks from now), never before now; a repeating one
  /// with `interval`.
  mutating func add(
    at time: Int?, delay: Int, interval: Int?, isHarness: Bool, isLast: Bool = false,
    _ body: @escaping @Sendable () -> Void
  ) -> (slot: Int, id: Int) {
    let due = max(now, time ?? now.clampedAdding(delay))
    let id = nextSequence
    nextSequence += 1
    let sequence: Int
    if isHarness {
      sequence = nextHarnessSequence
      nextHarnessSequence += 1
    } else if isLast {
      sequence = nextLastSequence
      nextLastSequence += 1
    } else {
      sequence = id
    }
    let slot = actions.store(
      .init(
        id: id, body: body, interval: interval, chainStart: running?.chainStart ?? due,
        generation: running.map { $0.generation + 1 } ?? 0))
    actions.push(time: due, sequence: sequence, slot: slot)
    return (slot, id)
  }

  /// Tags the action `id` as the wake-up of a task.
  mutating func tag(_ id: Int, as wakeUp: WakeUp) { wakeUps[id] = wakeUp }

  // MARK: Taking

  /// The live actions due now that may go first: the wake-ups, in their order, then the first of
  /// the others (never one that runs last at its tick) — unless a harness action is due first (a recorder subscribes before anything
  /// else at its tick), which is offered only with `offeringHarness`. The others keep their order
  /// among themselves: only the first is offered.
  func dueNow(offeringHarness: Bool) -> [Due] {
    guard let first = actions.firstTime, first <= now else { return [] }
    var due: [Due] = []
    var own: ActionHeap.Key?
    var harnessFirst = false
    for key in actions.pendingKeys where key.time <= now {
      let slot = actions.slots[key.slot]
      guard !slot.isCancelled else { continue }
      if let wakeUp = wakeUps[slot.id] {
        due.append(Due(key: key, id: slot.id, wakeUp: wakeUp))
      } else if key.sequence < Self.firstLastSequence,
        own.map({ key.sequence < $0.sequence }) ?? true
      {
        own = key
        harnessFirst = key.sequence < 0
      }
    }
    due.sort { $0.key.sequence < $1.key.sequence }
    guard let own, !harnessFirst || offeringHarness else { return due }
    return due + [Due(key: own, id: actions.slots[own.slot].id, wakeUp: nil)]
  }

  /// Takes the first live action due by `limit` (any tick with `nil`) out of line, dropping the
  /// cancelled ones before it; the clock does not move.
  mutating func takeFirst(through limit: Int?) -> ActionHeap.Key? {
    while let time = actions.firstTime, limit.map({ time <= $0 }) ?? true,
      let first = actions.popFirst()
    {
      guard !actions.slots[first.slot].isCancelled else {
        actions.free(first.slot)
        continue
      }
      return first
    }
    return nil
  }

  /// Puts an action taken out back where it was.
  mutating func putBack(_ key: ActionHeap.Key) {
    actions.push(time: key.time, sequence: key.sequence, slot: key.slot)
  }

  /// Takes the action `key` out of line, putting back the ones before it, and starts it; `nil` if
  /// it was cancelled meanwhile.
  mutating func take(_ key: ActionHeap.Key) -> (key: ActionHeap.Key, body: @Sendable () -> Void)? {
    var before: [ActionHeap.Key] = []
    var found: ActionHeap.Key?
    while actions.firstTime == key.time, let next = actions.popFirst() {
      if next.slot == key.slot {
        found = next
        break
      }
      before.append(next)
    }
    for other in before { putBack(other) }
    guard let found, !actions.slots[found.slot].isCancelled else {
      if let found { actions.free(found.slot) }
      return nil
    }
    return start(found)
  }

  /// Starts the action `key`, taken out of line: what it schedules is its follow-up work. A
  /// one-shot action's slot is freed as it starts (`ActionHeap.startRunning`).
  mutating func start(_ key: ActionHeap.Key) -> (key: ActionHeap.Key, body: @Sendable () -> Void) {
    var key = key
    // NB: only under an explored schedule are there any: a run without one hashes nothing here.
    if !wakeUps.isEmpty { wakeUps[actions.slots[key.slot].id] = nil }
    running = actions.lineage(of: key.slot)
    let body = actions.startRunning(slot: &key.slot)
    return (key, body)
  }

  /// After an action ran: a repeating one is due again `interval` ticks after its due time (never
  /// before now), keeping its slot, so the handle its scheduler holds keeps stopping it; a
  /// one-shot action's slot is freed.
  mutating func finish(_ key: ActionHeap.Key) {
    if key.slot == ActionHeap.freedSlot { return }
    if !actions.slots[key.slot].isCancelled, let interval = actions.slots[key.slot].interval {
      let due = max(now, key.time.clampedAdding(interval))
      actions.requeue(slot: key.slot, time: due, sequence: nextSequence)
      nextSequence += 1
    } else {
      actions.free(key.slot)
    }
  }

  /// The tick of the first live action, dropping the cancelled ones before it.
  mutating func dropCancelledHead() -> Int? { actions.dropCancelledHead() }

  /// Cancels the action `id` in `slot`, returning its closure to release outside the lock.
  mutating func cancel(slot: Int, id: Int) -> (@Sendable () -> Void)? {
    actions.cancel(slot: slot, id: id)
  }

  /// Empties the queue, returning the actions to release outside the lock.
  mutating func removeAll() -> [ActionHeap.Slot] { actions.removeAll() }
}
