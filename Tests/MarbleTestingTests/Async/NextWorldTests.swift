import Dispatch
import Testing

@testable import MarbleTesting

/// Worlds opened one after another by a test's code that is no actor's (W3 of the benchmark's
/// phase p, in a test).
@Suite struct NextWorldTests {
  /// Each world runs its own race at its own ticks, and the next world, opened by a root that runs
  /// on a closed world's loop, takes that loop's queue: its first turn waits on the same thread
  /// behind the closed world's, instead of waking another thread (on `acd3e12` every world had a
  /// queue of its own: 10 queues for 10 worlds).
  @Test func theNextWorldOfARootOnAClosedWorldsLoopTakesItsQueue() async {
    let (winners, loops) = await worldsInARow(10)
    #expect(winners == Array(repeating: "sleep at 1000 ms", count: 10))
    // NB: the queues kept, so that a freed one's address is not taken for another's.
    let queues = Set(loops.map(ObjectIdentifier.init))
    #expect(queues.count == 1, "\(queues.count) queues for 10 worlds")
  }
}

/// Opens `count` worlds in a row, each racing a 1 s sleep against a 2 s one; returns each world's
/// winner with its virtual time, and each world's loop queue.
nonisolated func worldsInARow(_ count: Int) async -> (winners: [String], loops: [DispatchQueue]) {
  var winners: [String] = []
  var loops: [DispatchQueue] = []
  for _ in 0..<count {
    let (winner, loop) = await withVirtualTime { _ in
      let begin = ContinuousClock.now
      let winner = await withTaskGroup(of: String.self) { group in
        group.addTask {
          try? await Task.sleep(for: .seconds(1))
          return "sleep"
        }
        group.addTask {
          try? await Task.sleep(for: .seconds(2))
          return "timeout"
        }
        let first = await group.next()!
        group.cancelAll()
        return first
      }
      let at = begin.duration(to: .now)
      return ("\(winner) at \(at.components.seconds * 1000) ms", World.current!.loop)
    }
    winners.append(winner)
    loops.append(loop)
  }
  return (winners, loops)
}
