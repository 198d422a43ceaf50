/// The bare loops the library is compared with: the least work the same job could take.
enum Baseline {
  /// A plain binary min-heap of `(time, sequence)` keys holding closures.
  struct Heap {
    struct Entry {
      var time: Int
      var sequence: Int
      var action: () -> Void
    }

    var entries: [Entry] = []

    mutating func push(_ entry: Entry) {
      entries.append(entry)
      var child = entries.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        let a = entries[child]
        let b = entries[parent]
        guard a.time < b.time || (a.time == b.time && a.sequence < b.sequence) else { break }
        entries.swapAt(child, parent)
        child = parent
      }
    }

    mutating func pop() -> Entry? {
      guard !entries.isEmpty else { return nil }
      entries.swapAt(0, entries.count - 1)
      let top = entries.removeLast()
      var parent = 0
      let count = entries.count
      while true {
        let left = 2 * parent + 1
        guard left < count else { break }
        var child = left
        let right = left + 1
        if right < count,
          entries[right].time < entries[left].time
            || (entries[right].time == entries[left].time
              && entries[right].sequence < entries[left].sequence)
        {
          child = right
        }
        let c = entries[child]
        let p = entries[parent]
        guard c.time < p.time || (c.time == p.time && c.sequence < p.sequence) else { break }
        entries.swapAt(child, parent)
        parent = child
      }
      return top
    }
  }

  /// Schedules `count` closures (at scrambled or ascending distinct times, or all at one) and drains them in order.
  static func heap(count: Int, times: Times) -> Int {
    var heap = Heap()
    heap.entries.reserveCapacity(count)
    var total = 0
    for index in 0..<count {
      // Times in a scrambled order, as tests schedule them.
      let time =
        switch times {
        case .scrambled: (index &* 7919) % count
        case .ascending: index
        case .same: 0
        }
      heap.push(.init(time: time, sequence: index, action: { total &+= 1 }))
    }
    while let entry = heap.pop() { entry.action() }
    return total
  }

  /// Calls an array of closures in order.
  static func closures(count: Int) -> Int {
    var total = 0
    var actions: [() -> Void] = []
    actions.reserveCapacity(count)
    for index in 0..<count { actions.append { total &+= index } }
    for action in actions { action() }
    return total
  }
}
