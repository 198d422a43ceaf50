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

extension Baseline {
  /// Phase c: 1,000 closures in an array, each called with 0..<1,000; returns the sum they saw.
  static func fanOut(receivers: Int, sends: Int) -> Int {
    let counter = Counter()
    var receiversList: [(Int) -> Void] = []
    receiversList.reserveCapacity(receivers)
    for _ in 0..<receivers { receiversList.append { counter.add($0) } }
    for value in 0..<sends {
      for receiver in receiversList { receiver(value) }
    }
    return counter.value
  }

  /// Phase d: what an unlimited replay buffer needs at least — append every sent value to an
  /// array, then call each late subscriber's closure (kept in an array, so the call is a real
  /// indirect call, not inlined) with every stored value.
  static func replay(sends: Int, lateSubscribers: Int) -> Int {
    var history: [Int] = []
    for value in 0..<sends { history.append(value) }
    let counter = Counter()
    var receivers: [(Int) -> Void] = []
    receivers.reserveCapacity(lateSubscribers)
    for _ in 0..<lateSubscribers { receivers.append { counter.add($0) } }
    for receiver in receivers {
      for value in history { receiver(value) }
    }
    return counter.value
  }

  /// Phase e: 100 closures, each appending `(tick, value)` to its own log, called for 10,000
  /// values; returns the number of entries logged.
  static func recorders(subscribers: Int, values: Int) -> Int {
    let logs = (0..<subscribers).map { _ in Sharing.Log() }
    let receivers: [(Int, Int) -> Void] = logs.map { log in { log.entries.append(($0, $1)) } }
    for value in 0..<values {
      for receiver in receivers { receiver(value + 1, value) }
    }
    return logs.reduce(0) { $0 + $1.entries.count }
  }

  /// An event of the bare marble parser: its frame and its byte (a value, `|` or `#`).
  struct MarbleEvent {
    var frame: Int
    var byte: UInt8
  }

  /// Phase f: the same job on bytes — a hand-written parser for the subset of the language the
  /// diagram uses (values, `-`, `(…)`, ` 120ms `, `|`) and a printer back, with no error checks,
  /// no `values:` lookup, no `String` values and no Unicode; the printed text must equal the input.
  static func marbles(_ diagram: String) -> Int {
    let bytes = Array(diagram.utf8)
    // Parse.
    var events: [MarbleEvent] = []
    events.reserveCapacity(bytes.count / 2)
    var frame = 0
    var groupSize: Int?
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "-"): frame += 1
      case UInt8(ascii: "("): groupSize = 0
      case UInt8(ascii: ")"):
        frame += groupSize! + 2
        groupSize = nil
      case UInt8(ascii: " "):
        var ticks = 0
        var digits = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
          ticks = ticks * 10 + Int(bytes[index] - UInt8(ascii: "0"))
          index += 1
          digits += 1
        }
        if digits > 0 {
          index += 2  // "ms"
          frame += ticks
        }
      default:
        events.append(MarbleEvent(frame: frame, byte: byte))
        if let size = groupSize { groupSize = size + 1 } else { frame += 1 }
      }
    }
    // Print.
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    frame = 0
    var first = 0
    while first < events.count {
      let time = events[first].frame
      var end = first + 1
      while end < events.count, events[end].frame == time { end += 1 }
      let gap = time - frame
      if gap > 32 {
        if output.last != UInt8(ascii: " ") { output.append(UInt8(ascii: " ")) }
        output.append(contentsOf: "\(gap)ms ".utf8)
      } else {
        output.append(contentsOf: repeatElement(UInt8(ascii: "-"), count: gap))
      }
      if end - first == 1 {
        output.append(events[first].byte)
        frame = time + 1
      } else {
        output.append(UInt8(ascii: "("))
        for event in events[first..<end] { output.append(event.byte) }
        output.append(UInt8(ascii: ")"))
        frame = time + end - first + 2
      }
      first = end
    }
    let printed = String(decoding: output, as: UTF8.self)
    precondition(printed == diagram)
    return events.count
  }
}
