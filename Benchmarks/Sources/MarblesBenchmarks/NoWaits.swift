import Dispatch
import Foundation
import MarbleTesting
import NoWaitsWorkload

/// Phase q (issue 48.4): work that does not wait — 1,000 tasks pushing through an actor-backed
/// queue, no sleeps — in a world and without one, alternating; the world should add at most 1.2×.
enum NoWaitsPhase {
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
      let plainCount =
        worldOnly == nil ? await Task.detached { await NoWaitsWorkload.run() }.value : 1_000
      plain.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
      start = DispatchTime.now().uptimeNanoseconds
      let worldCount = await Task.detached {
        await withVirtualTime { _ in await NoWaitsWorkload.run() }
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
    if worldOnly == nil { inProcesses() }
  }

  /// The same workload in processes of its own (`SynctestWorkloads Q`, `Q-plain`, `Q floor`:
  /// 1,000 rounds each), release and debug — debug as `swift test` builds a user's tests — with
  /// the runtime's floor (phase p's `FloorExecutor`): the least any world could add. Five runs
  /// of each, alternating, medians; milliseconds a round. The plain side is two-valued between
  /// processes (1,000 tasks on the pool's threads contending for one actor: about 0.6 ms a round,
  /// or 1.7–2 ms), so the world is also compared with the fastest plain run, the one 48.4 is held
  /// to.
  static func inProcesses(runs: Int = 5) {
    guard let debug = SynctestPhase.debugWorkloads() else {
      print("q. in processes: the debug build of SynctestWorkloads failed")
      return
    }
    let release = SideProcesses.executable("SynctestWorkloads")
    for (build, executable) in [("release", release), ("debug", debug)] {
      var figures: [String: [Double]] = [:]
      for _ in 0..<runs {
        for side in [["Q-plain"], ["Q"], ["Q", "floor"]] {
          guard let run = SynctestPhase.run([executable] + side), run.status == 0,
            let result = SynctestPhase.parse(run.output)
          else {
            print("q. in processes: SynctestWorkloads \(side.joined(separator: " ")) failed")
            return
          }
          figures[side.joined(separator: " "), default: []].append(result.real)
        }
      }
      func milliseconds(_ side: String) -> Double {
        let values = figures[side, default: [0]].sorted()
        return values[values.count / 2]  // 1,000 rounds: seconds are ms a round
      }
      let plain = milliseconds("Q-plain"), world = milliseconds("Q"),
        floor = milliseconds("Q floor")
      let fastestPlain = figures["Q-plain", default: [0]].min() ?? 0
      print(
        "q. \(build), a process each:".padding(toLength: 30, withPad: " ", startingAt: 0)
          + String(
            format:
              "plain %.3f ms (fastest %.3f), world %.3f ms (%.2fx; %.2fx the fastest plain), "
              + "runtime floor %.3f ms (world/floor %.2fx)",
            plain, fastestPlain, world, world / plain, world / fastestPlain, floor, world / floor))
    }
  }
}
