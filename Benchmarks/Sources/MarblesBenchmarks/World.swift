import Dispatch
import Foundation
import MarbleTesting
import Synchronization

/// Phase l: the test's world. The search of phase i written the way the code is written — the
/// test awaits a sleep, and its await moves time — against the same search driven by explicit
/// `advance` calls, both in a world of their own; and a task group of 10,000 children sleeping
/// random durations, awaited in a world.
enum WorldPhase {
  static let runs = SideBySide.runs

  /// The search with explicit calls: each step of time is an `advance`.
  @MainActor static func searchAdvancing() async -> SideBySide.Outcome {
    await withVirtualTime { scheduler in
      let searcher = SideBySide.Searcher(clock: ContinuousClock())
      return await SideBySide.search(
        type: { searcher.type($0) }, advance: { scheduler.advance(by: $0) },
        state: { (searcher.searchCount, searcher.results) })
    }
  }

  /// The same search, awaiting: each step of time is the test's own sleep, which the world drives.
  @MainActor static func searchAwaiting() async -> SideBySide.Outcome {
    await withVirtualTime { _ in
      let searcher = SideBySide.Searcher(clock: ContinuousClock())
      return await SideBySide.search(
        type: { searcher.type($0) }, advance: { try? await Task.sleep(for: $0) },
        state: { (searcher.searchCount, searcher.results) })
    }
  }

  /// `count` sleeps of 1 ms awaited by the test itself, in a world: its awaits drive. Returns
  /// the virtual milliseconds that passed. A test function is nonisolated unless marked.
  static func sleepsAwaited(_ count: Int) async -> Int {
    await withVirtualTime { scheduler in
      for _ in 0..<count { try? await Task.sleep(for: .milliseconds(1)) }
      return scheduler.now
    }
  }

  /// The same in a `@MainActor` test: each sleep hops off the main actor and back as well.
  @MainActor static func sleepsAwaitedOnTheMainActor(_ count: Int) async -> Int {
    await withVirtualTime { scheduler in
      for _ in 0..<count { try? await Task.sleep(for: .milliseconds(1)) }
      return scheduler.now
    }
  }

  /// The same `count` sleeps of 1 ms in a task the test starts, driven by one explicit
  /// `advance(by:)` per sleep. Returns the virtual milliseconds that passed.
  @MainActor static func sleepsAdvanced(_ count: Int) -> Int {
    withVirtualTime { scheduler in
      let sleeper = Task {
        for _ in 0..<count { try? await Task.sleep(for: .milliseconds(1)) }
      }
      for _ in 0..<count { scheduler.advance(by: .milliseconds(1)) }
      scheduler.run()
      _ = sleeper
      return scheduler.now
    }
  }

  /// 10,000 child tasks, each asleep for a random 1…10,000 ms, awaited in a world; returns how
  /// many woke and the virtual time the group took.
  static func taskGroupOfSleepers(_ count: Int = 10_000) async -> (woken: Int, took: Duration) {
    await withVirtualTime { _ in
      var generator = SplitMix(seed: 0x5EED)
      let durations = (0..<count).map { _ in Int(generator.next() % 10_000) + 1 }
      let start = ContinuousClock.now
      let woken = await withTaskGroup(of: Int.self) { group in
        for milliseconds in durations {
          group.addTask {
            (try? await Task.sleep(for: .milliseconds(milliseconds))) == nil ? 0 : 1
          }
        }
        return await group.reduce(0, +)
      }
      return (woken, start.duration(to: ContinuousClock.now))
    }
  }

  /// Runs `scenario` `count` times: how many runs were wrong, and the seconds per run.
  @MainActor static func quietly(
    _ count: Int, _ scenario: @MainActor () async -> SideBySide.Outcome
  ) async -> (wrong: Int, seconds: Double) {
    var wrong = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<count where await scenario() != .right { wrong += 1 }
    return (wrong, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 / Double(count))
  }

  /// A small seeded generator, so that every run sleeps the same durations.
  struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  @MainActor static func run() async {
    print("l. the test's world, \(runs) runs each")
    // Ten rounds, the two ways alternating which goes first, so that neither always runs on a
    // warmer (or busier) machine; the ratio is the median of the rounds' ratios.
    let rounds = 10
    var ratios: [Double] = []
    var wrong = (advancing: 0, awaiting: 0)
    var seconds = (advancing: 0.0, awaiting: 0.0)
    for round in 0..<rounds {
      var advancing = (wrong: 0, seconds: 0.0)
      var awaiting = (wrong: 0, seconds: 0.0)
      for way in round.isMultiple(of: 2) ? [0, 1] : [1, 0] {
        if way == 0 {
          advancing = await quietly(runs / rounds) { await searchAdvancing() }
        } else {
          awaiting = await quietly(runs / rounds) { await searchAwaiting() }
        }
      }
      ratios.append(awaiting.seconds / advancing.seconds)
      wrong.advancing += advancing.wrong
      wrong.awaiting += awaiting.wrong
      seconds.advancing += advancing.seconds / Double(rounds)
      seconds.awaiting += awaiting.seconds / Double(rounds)
    }
    for (name, wrong, seconds) in [
      ("l. search, explicit advance", wrong.advancing, seconds.advancing),
      ("l. search, awaits drive", wrong.awaiting, seconds.awaiting),
    ] {
      print(
        name.padding(toLength: 46, withPad: " ", startingAt: 0)
          + String(
            format: "%5d of %d wrong %12.4f ms/run", wrong, runs / rounds * rounds, seconds * 1e3))
    }
    print(
      Harness.comparison(
        "l. search: awaits drive / explicit advance", ratio: ratios.sorted()[rounds / 2]))
    // The same sleeps, the test's own awaited — each a wake-up task and its jobs, run by the
    // world's loop; in a `@MainActor` test two more, the hops off the main actor into
    // `Task.sleep` and back — against a task's driven by explicit `advance` calls: the world's
    // cost per wait, without the search's own work on both sides.
    let sleeps = 100_000
    var perSleep: [[Double]] = [[], [], []]
    var order = SplitMix(seed: 0x0DE5)
    for _ in 0..<5 {
      for way in [0, 1, 2].shuffled(using: &order) {
        let start = DispatchTime.now().uptimeNanoseconds
        let moved =
          switch way {
          case 0: await sleepsAwaited(sleeps)
          case 1: await sleepsAwaitedOnTheMainActor(sleeps)
          default: sleepsAdvanced(sleeps)
          }
        precondition(moved == sleeps, "the sleeps moved virtual time \(moved) ms")
        perSleep[way].append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(sleeps))
      }
    }
    let medians = perSleep.map { $0.sorted()[2] }
    for (name, nanoseconds) in zip(
      [
        "l. 100,000 sleeps awaited by the test", "l. the same, a @MainActor test",
        "l. 100,000 sleeps of a task, advanced",
      ], medians)
    {
      print(
        name.padding(toLength: 46, withPad: " ", startingAt: 0)
          + String(format: "%23.0f ns/sleep (median of 5)", nanoseconds))
    }
    print(Harness.comparison("l. a sleep: awaited / advanced", ratio: medians[0] / medians[2]))
    print(
      Harness.comparison(
        "l. a sleep: @MainActor awaited / advanced", ratio: medians[1] / medians[2]))
    var times: [Double] = []
    var last = (woken: 0, took: Duration.zero)
    for _ in 0..<5 {
      let start = DispatchTime.now().uptimeNanoseconds
      last = await taskGroupOfSleepers()
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    print(
      "l. 10,000 children sleeping 1…10,000 ms".padding(toLength: 46, withPad: " ", startingAt: 0)
        + String(
          format: "%5d woken, %@ virtual %10.4f s (median of 5)", last.woken,
          "\(last.took)", times.sorted()[2]))
  }
}
