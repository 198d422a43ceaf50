/// A priority queue of scheduled actions ordered by `(time, sequence)`: a binary min-heap, plus a
/// sorted run for the common case of work scheduled in time order.
///
/// The queue holds only plain keys — `(time, sequence, slot)` — compared inline, with no comparator
/// closure and no sort per step. The actions live in a side table of reusable slots indexed by
/// `slot`, so sifting moves 24-byte values and never touches a reference count (with the action
/// inside each entry, every move retained and released an object that was usually out of cache: 40%
/// of the time in the 1M-action benchmark). Slots also make an action's identity: a
/// ``ScheduledActionHandle`` names its slot and the action's `id`, so scheduling allocates nothing
/// beyond the action's closure.
///
/// Most work arrives in time order: a hot test signal schedules its events ascending, and actions
/// scheduled for the current tick always sort after those already queued (their sequence is
/// higher). A key that sorts after the last key of the *run* — a plain array consumed from `runHead`
/// — is appended to it in O(1); any other key goes into the heap, O(log n). `popFirst` takes the
/// smaller of the run's head and the heap's root. Ascending or same-time schedules never touch the
/// heap, which took 36% of the instructions of draining a million ascending actions.
struct ActionHeap {
  struct Key {
    var time: Int
    var sequence: Int
    var slot: Int

    @inline(__always)
    func precedes(_ other: Key) -> Bool {
      time < other.time || (time == other.time && sequence < other.sequence)
    }
  }

  /// An action and what the scheduler knows about it. A repeating action keeps its slot from one
  /// run to the next.
  struct Slot {
    /// Unique per scheduled action (its first sequence number); tells a handle whether the slot
    /// still holds its action.
    var id: Int
    /// The work; `nil` once the slot is free or the action was cancelled (released at once).
    var body: (@Sendable () -> Void)?
    /// The repeat interval in ticks, or `nil` for a one-shot action.
    var interval: Int? {
      get { repeatTicks > 0 ? repeatTicks : nil }
      set { repeatTicks = newValue ?? 0 }
    }
    /// `interval`, or 0 for a one-shot action: a plain `Int` keeps the slot 8 bytes smaller (an
    /// `Int?` is padded to 16), which a million pending actions feel.
    private var repeatTicks = 0
    /// The tick the first action of this chain was due at.
    var chainStart: Int
    /// How many actions in a row led to this one: an action scheduled while another runs (or a
    /// repeat) is one generation later. When `run()` gives up at its step limit, the pending action
    /// of the highest generation is the one that kept rescheduling.
    var generation: Int

    init(
      id: Int, body: (@Sendable () -> Void)?, interval: Int?, chainStart: Int, generation: Int
    ) {
      self.id = id
      self.body = body
      self.chainStart = chainStart
      self.generation = generation
      self.interval = interval
    }

    var isCancelled: Bool { body == nil }

    /// What `run()` says when this action exhausts the step limit.
    ///
    /// - Parameter time: When it is due next.
    func culpritDescription(dueAt time: Int) -> String {
      if let interval {
        return "a repeating action (every \(interval) tick\(interval == 1 ? "" : "s"), "
          + "first due at tick \(chainStart), \(generation) runs so far, next due at tick \(time)) — "
          + "dispose its timer or use advance(to:) instead of run()"
      }
      return "an action that keeps scheduling more work (a chain of \(generation + 1) actions, the "
        + "first due at tick \(chainStart), next due at tick \(time)) — an endless recursion or timer"
    }
  }

  /// The heap, for keys that arrived out of order.
  private var keys: [Key] = []
  /// The sorted run, from `runHead` on: keys that arrived in order.
  private var run: [Key] = []
  private var runHead = 0
  private(set) var slots: [Slot] = []
  /// The first free slot, or -1. A free slot's `id` links to the next one: it holds `-2 - next`,
  /// negative like every free slot's, so no handle's id matches it. (A list threaded through the
  /// slots needs no array of its own, which a million actions made grow to 8 MB.)
  private var freeHead = -1

  var isEmpty: Bool { keys.isEmpty && runHead == run.count }
  var count: Int { keys.count + run.count - runHead }

  /// The time of the earliest entry, if any.
  var firstTime: Int? { firstKey?.time }

  /// The earliest of the run's head and the heap's root.
  private var firstKey: Key? {
    guard runHead < run.count else { return keys.first }
    guard let root = keys.first else { return run[runHead] }
    return root.precedes(run[runHead]) ? root : run[runHead]
  }

  /// Every pending key, in no particular order (for diagnostics).
  var pendingKeys: some Sequence<Key> { keys.lazy + run[runHead...] }

  /// Whether a pending action has not been cancelled.
  var containsLiveAction: Bool {
    pendingKeys.contains { !slots[$0.slot].isCancelled }
  }

  /// How many pending actions have not been cancelled.
  var liveActionCount: Int {
    pendingKeys.reduce(0) { $0 + (slots[$1.slot].isCancelled ? 0 : 1) }
  }

  /// Stores a new action in a free slot.
  ///
  /// - Returns: The slot's index.
  mutating func store(_ slot: consuming Slot) -> Int {
    if freeHead >= 0 {
      let free = freeHead
      freeHead = -2 - slots[free].id
      slots[free] = slot
      return free
    }
    slots.append(slot)
    return slots.count - 1
  }

  /// Frees a slot whose action will not run again.
  mutating func free(_ index: Int) {
    slots[index].body = nil
    release(index)
  }

  /// The generation and chain start of the action in slot `index`, for the work it schedules.
  func lineage(of index: Int) -> (generation: Int, chainStart: Int) {
    (slots[index].generation, slots[index].chainStart)
  }

  /// Takes out the action in slot `index` to run it. A one-shot action's slot is freed at once —
  /// its handle reports it finished, and the scheduler need not come back after running it —
  /// and its key's `slot` becomes ``freedSlot``; a repeating action keeps its slot.
  ///
  /// - Precondition: The slot holds an action that was not cancelled.
  mutating func startRunning(slot index: inout Int) -> @Sendable () -> Void {
    guard slots[index].interval == nil else { return slots[index].body! }
    let body = slots[index].body.take()!
    release(index)
    index = Self.freedSlot
    return body
  }

  /// Puts slot `index`, already emptied, on the free list.
  private mutating func release(_ index: Int) {
    slots[index].id = -2 - freeHead
    freeHead = index
  }

  /// The slot of a key whose one-shot action has been taken out to run.
  static let freedSlot = -1

  /// Cancels the action `id` if it is still in slot `index`: it never runs.
  ///
  /// - Returns: Its closure, for the caller to release outside the lock.
  mutating func cancel(slot index: Int, id: Int) -> (@Sendable () -> Void)? {
    guard index < slots.count, slots[index].id == id else { return nil }
    defer { slots[index].body = nil }
    return slots[index].body
  }

  /// Empties the queue.
  ///
  /// - Returns: The closures, for the caller to release outside the lock.
  mutating func removeAll() -> [Slot] {
    defer { self = ActionHeap() }
    return slots
  }

  /// Whether the action `id` is no longer waiting to run: cancelled, or started and not repeating.
  func isFinished(slot index: Int, id: Int) -> Bool {
    guard index < slots.count, slots[index].id == id else { return true }
    return slots[index].isCancelled
  }

  /// Queues a repeating action's next run, one generation later, in the slot it keeps.
  mutating func requeue(slot: Int, time: Int, sequence: Int) {
    slots[slot].generation += 1
    push(time: time, sequence: sequence, slot: slot)
  }

  /// Queues slot `slot` to run at `time`.
  mutating func push(time: Int, sequence: Int, slot: Int) {
    let moving = Key(time: time, sequence: sequence, slot: slot)
    if runHead == run.count || run[run.count - 1].precedes(moving) {
      run.append(moving)
      return
    }
    keys.append(moving)
    var child = keys.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard moving.precedes(keys[parent]) else { break }
      keys[child] = keys[parent]
      child = parent
    }
    keys[child] = moving
  }

  /// Frees the cancelled actions at the front of the queue, which would be dropped when their
  /// time came anyway, and returns the time of the earliest live one, if any.
  mutating func dropCancelledHead() -> Int? {
    while let first = firstKey, slots[first.slot].isCancelled {
      _ = popFirst()
      free(first.slot)
    }
    return firstKey?.time
  }

  /// Removes and returns the earliest key. Its slot stays taken until ``free(_:)``.
  mutating func popFirst() -> Key? {
    if runHead < run.count, keys.first.map({ !$0.precedes(run[runHead]) }) ?? true {
      let first = run[runHead]
      runHead += 1
      if runHead == run.count {
        run.removeAll(keepingCapacity: true)
        runHead = 0
      }
      return first
    }
    return popHeap()
  }

  /// Removes and returns the heap's root.
  private mutating func popHeap() -> Key? {
    guard let last = keys.popLast() else { return nil }
    guard let first = keys.first else { return last }
    // Sift the former last key down from the root.
    let count = keys.count
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < count else { break }
      let right = left + 1
      let child = right < count && keys[right].precedes(keys[left]) ? right : left
      guard keys[child].precedes(last) else { break }
      keys[parent] = keys[child]
      parent = child
    }
    keys[parent] = last
    return first
  }
}
