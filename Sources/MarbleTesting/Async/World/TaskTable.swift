/// A table of values by task id: what the registry and a world keep of each task they hold.
///
/// A dictionary whose keys hash by one multiply and a shift instead of the standard library's
/// SipHash: a task id is no outside input that could be chosen to collide, and the routing decision
/// and a world's bookkeeping look tasks up several times for every task a world takes (SipHash was
/// about a tenth of a world's time on work that does not wait: phase q).
struct TaskTable<Value> {
  private var storage: [TaskKey: Value] = [:]

  subscript(id: UInt64) -> Value? {
    @_transparent get { storage[TaskKey(id)] }
    @_transparent set { storage[TaskKey(id)] = newValue }
    _modify { yield &storage[TaskKey(id)] }
  }

  subscript(id: UInt64, default value: @autoclosure () -> Value) -> Value {
    @_transparent get { storage[TaskKey(id), default: value()] }
    _modify { yield &storage[TaskKey(id), default: value()] }
  }

  @_transparent @discardableResult
  mutating func removeValue(forKey id: UInt64) -> Value? {
    storage.removeValue(forKey: TaskKey(id))
  }

  /// Removes the entries `shouldBeRemoved` picks.
  mutating func removeAll(where shouldBeRemoved: (UInt64, Value) -> Bool) {
    storage = storage.filter { !shouldBeRemoved($0.key.id, $0.value) }
  }

  /// The entries `isIncluded` picks, by ascending id.
  func sorted(where isIncluded: (Value) -> Bool) -> [(id: UInt64, value: Value)] {
    storage.compactMap { isIncluded($0.value) ? ($0.key.id, $0.value) : nil }.sorted {
      $0.id < $1.id
    }
  }

  var isEmpty: Bool { storage.isEmpty }
}

extension TaskTable: Sendable where Value: Sendable {}

/// A task id as a dictionary key: see ``TaskTable``.
struct TaskKey: Hashable, Sendable {
  let id: UInt64

  init(_ id: UInt64) {
    self.id = id
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(id)
  }

  /// The hash a dictionary asks for: the id multiplied by the golden ratio's odd constant, its
  /// high bits folded into the low ones that pick the bucket, with the dictionary's seed.
  ///
  /// NB: the customization point through which a dictionary hashes its keys (the standard
  /// library's integer keys answer it with a one-word SipHash); public, underscored. Where it is
  /// not asked for, `hash(into:)` answers, alike for equal keys.
  func _rawHashValue(seed: Int) -> Int {
    var hash = (id ^ UInt64(bitPattern: Int64(seed))) &* 0x9E37_79B9_7F4A_7C15
    hash ^= hash >> 29
    return Int(bitPattern: UInt(truncatingIfNeeded: hash))
  }
}
