import CMarbleRuntime
import Synchronization

/// Another task's task-local bindings, bound here for the length of a call: so that a report the
/// world makes from its own thread is recorded as if the test's task made it where it waits now —
/// inside a `withKnownIssue`, say, which Swift Testing keeps in a task local.
///
/// A task keeps its bindings in a chain of items (`swift/ABI/TaskLocal.h`: the next item, tagged
/// in its low bits; the key, the `TaskLocal` object; the value's type; the value, aligned after
/// them), whose head is a field of the task; the chain goes on into the parent task's items,
/// through an item that holds no value — on Swift 6.3, seen here, one whose own link is tagged 4
/// (that header's `IsParent`, 1, is taken alike), its other words not a binding's. Where that
/// field is, the runtime does not say: it is found once, by binding a value on the current task
/// and looking, with reads that cannot fault (`marbles_read_memory`), for the one word of the task
/// that points at its item. The
/// bindings are then pushed, oldest first, where the caller runs (its task's own bindings, or the
/// thread's where no task is current), and popped after the call: the runtime's own entry points
/// (`swift_task_localValuePush`, `swift_task_localValuePop`), which `TaskLocal.withValue` uses.
/// The bindings are read, and their values copied, while the other task waits and nothing runs it
/// (the world's root, held by its giving-up loop): its chain does not change meanwhile. The call
/// that binds them may come later, on another thread (the reporter's).
package enum TaskLocals {
  @TaskLocal private static var probe: Int = 0

  /// The head's offset in a task, in bytes, once found (`nil` inside: not found).
  private static let headOffset = Mutex<Int??>(nil)

  /// The words of a task searched for the head.
  private static let searchedWords = 64

  /// Runs `body` with `task`'s task-local bindings bound here; with none if they cannot be read
  /// (no current task to find the head with, or a runtime whose layout is not the one above).
  package static func withBindings<Result>(
    of task: WaitingTask, _ body: () throws -> Result
  ) rethrows -> Result {
    let copies = task.bindings.copies
    for copy in copies.reversed() { push(copy.type, key: copy.key, from: copy.value) }
    defer { for _ in copies { swift_task_localValuePop() } }
    return try body()
  }

  /// A task's bindings as they were read: copies of their values, newest first, which the
  /// snapshot owns (so that the task may go on once it is taken).
  package final class Snapshot: @unchecked Sendable {
    // NB: @unchecked: set once; each copy is only read, and destroyed with the snapshot.
    fileprivate let copies: [Copy]

    fileprivate init(_ copies: [Copy]) {
      self.copies = copies
    }

    deinit {
      for copy in copies { TaskLocals.destroy(copy.type, copy.value) }
    }
  }

  fileprivate struct Copy {
    let key: UnsafeRawPointer
    let type: Any.Type
    let value: UnsafeMutableRawPointer
  }

  /// Copies `task`'s bindings, which must not change meanwhile (the task waits, and nothing runs
  /// it); none if they cannot be read.
  static func snapshot(of task: MarblesJobRef) -> Snapshot {
    let bindings = headOffsetFound().map { read(task, headAt: $0) } ?? []
    return Snapshot(
      bindings.map { binding in
        Copy(key: binding.key, type: binding.type, value: copy(binding.type, item: binding.item))
      })
  }

  /// Finds where a task keeps its bindings, once, from a task (the current one); does nothing
  /// without one. A snapshot is taken on a world's thread, where no task is current: the world
  /// calls this as it opens, on its root.
  static func findTheHeadOnce() {
    _ = headOffsetFound()
  }

  /// Whether another task's bindings can be read here: for the runtime facts' check.
  package static var canRead: Bool {
    headOffsetFound() != nil
  }

  private struct Binding {
    let key: UnsafeRawPointer
    let type: Any.Type
    let item: UnsafeRawPointer
  }

  private static func headOffsetFound() -> Int? {
    if let known = headOffset.withLock({ $0 }) { return known }
    guard let task = Jobs.currentTask else { return nil }
    let found = findHeadOffset(in: task)
    headOffset.withLock { $0 = .some(found) }
    return found
  }

  private static func findHeadOffset(in task: MarblesJobRef) -> Int? {
    let key = UnsafeRawPointer(Unmanaged.passUnretained($probe).toOpaque())
    let type = unsafeBitCast(Int.self as Any.Type, to: UnsafeRawPointer.self)
    let marker = 0x6d61_7262_6c65_73  // "marbles"
    return $probe.withValue(marker) {
      let base = UnsafeRawPointer(task)
      var found: [Int] = []
      for index in 0..<searchedWords {
        guard let word = load(UInt.self, at: base + index * MemoryLayout<UInt>.size),
          let item = UnsafeRawPointer(bitPattern: word & ~7)
        else { continue }
        guard load(UnsafeRawPointer?.self, at: item + 8) == key,
          load(UnsafeRawPointer?.self, at: item + 16) == type,
          load(Int.self, at: item + 24) == marker
        else { continue }
        found.append(index * MemoryLayout<UInt>.size)
      }
      return found.count == 1 ? found[0] : nil
    }
  }

  /// `task`'s bindings, newest first, one per key (the newest: an older one is never seen).
  private static func read(_ task: MarblesJobRef, headAt offset: Int) -> [Binding] {
    var bindings: [Binding] = []
    var keys: Set<UnsafeRawPointer> = []
    var next = load(UInt.self, at: UnsafeRawPointer(task) + offset) ?? 0
    // NB: a chain is short; a bound keeps a chain read wrong from running on.
    for _ in 0..<10_000 {
      guard let item = UnsafeRawPointer(bitPattern: next & ~7) else { break }
      guard let following = load(UInt.self, at: item) else { break }
      // An item whose link goes to the parent's items holds no value.
      let isLink = following & 4 != 0 || following & 3 == 1
      let key = isLink ? nil : load(UnsafeRawPointer?.self, at: item + 8) ?? nil
      let type = isLink ? nil : load(UnsafeRawPointer?.self, at: item + 16) ?? nil
      if let key, let type, keys.insert(key).inserted {
        bindings.append(
          Binding(key: key, type: unsafeBitCast(type, to: Any.Type.self), item: item))
      }
      next = following
    }
    return bindings
  }

  /// A copy of the value of `item` (a `T`), in storage of its own.
  private static func copy<T>(_: T.Type, item: UnsafeRawPointer) -> UnsafeMutableRawPointer {
    let alignment = MemoryLayout<T>.alignment
    let offset = (24 + alignment - 1) & ~(alignment - 1)
    let value = UnsafeMutablePointer<T>.allocate(capacity: 1)
    value.initialize(to: (item + offset).assumingMemoryBound(to: T.self).pointee)
    return UnsafeMutableRawPointer(value)
  }

  /// Binds a copy of `copy` (a `T`) to `key` here.
  private static func push<T>(_: T.Type, key: UnsafeRawPointer, from copy: UnsafeMutableRawPointer)
  {
    let value = UnsafeMutablePointer<T>.allocate(capacity: 1)
    defer { value.deallocate() }
    value.initialize(to: copy.assumingMemoryBound(to: T.self).pointee)
    // NB: the runtime takes the value: `value` is left uninitialized.
    swift_task_localValuePush(key, value, unsafeBitCast(T.self, to: UnsafeRawPointer.self))
  }

  /// Destroys and frees a copy (a `T`).
  fileprivate static func destroy<T>(_: T.Type, _ copy: UnsafeMutableRawPointer) {
    let value = copy.assumingMemoryBound(to: T.self)
    value.deinitialize(count: 1)
    value.deallocate()
  }

  private static func load<T>(_: T.Type, at address: UnsafeRawPointer) -> T? {
    withUnsafeTemporaryAllocation(of: T.self, capacity: 1) { buffer in
      guard let start = buffer.baseAddress,
        marbles_read_memory(address, start, MemoryLayout<T>.size)
      else { return nil }
      return start.pointee
    }
  }
}
