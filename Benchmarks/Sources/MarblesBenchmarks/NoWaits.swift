import Dispatch
import Foundation
import MarbleTesting

/// Phase q (issue 48.4): work that does not wait — 1,000 tasks pushing through an actor-backed
/// queue, no sleeps — in a world and without one, alternating; the world should add at most 1.2×.
enum NoWaitsPhase {
  /// A queue an app keeps behind an actor.
  actor Queue {
    private var items: [Int] = []
    func push(_ item: Int) -> Int {
      items.append(item)
      return items.count
    }
    var count: Int { items.count }
  }

  /// 1,000 tasks each pushing once, awaited; the queue's count.
  static func workload() async -> Int {
    let queue = Queue()
    let tasks = (0..<1_000).map { index in Task { await queue.push(index) } }
    for task in tasks { _ = await task.value }
    return await queue.count
  }

  static func run(rounds: Int = 21) async {
    // `BENCH_Q_WORLD=N`: only the world's side, N rounds (for a profiler).
    let worldOnly = ProcessInfo.processInfo.environment["BENCH_Q_WORLD"].flatMap { Int($0) }
    let rounds = worldOnly ?? rounds
    var plain: [Double] = []
    var world: [Double] = []
    // NB: each side starts in a task of its own, on the cooperative pool: the phase's task runs on
    // from a world that closed on that world's loop thread, off the pool, until it next suspends,
    // and a plain round started there took 1.1 ms or 2.2 ms for the same work.
    for _ in 0..<rounds {
      var start = DispatchTime.now().uptimeNanoseconds
      let plainCount = worldOnly == nil ? await Task.detached { await workload() }.value : 1_000
      plain.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      start = DispatchTime.now().uptimeNanoseconds
      let worldCount = await Task.detached {
        await withVirtualTime { _ in await workload() }
      }.value
      world.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      guard plainCount == 1_000, worldCount == 1_000 else {
        print("q. wrong count: \(plainCount) plain, \(worldCount) in a world")
        return
      }
    }
    let plainMedian = plain.sorted()[rounds / 2]
    let worldMedian = world.sorted()[rounds / 2]
    print(
      "q. 1,000 tasks through an actor, no sleeps".padding(
        toLength: 46, withPad: " ", startingAt: 0)
        + String(
          format: "plain %.3f ms, world %.3f ms (medians of %d)", plainMedian * 1e3,
          worldMedian * 1e3, rounds))
    print(Harness.comparison("q. no waits: world / plain", ratio: worldMedian / plainMedian))
  }
}
