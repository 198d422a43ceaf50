// Phase k of `make bench`: exploring schedules. Its own executable in the root package, because
// the exploration machinery is MarbleTesting's `package` interface, which the Benchmarks package
// (another package) cannot see. Run by `make bench` in a release build.
import Dispatch
import Foundation
import MarbleTesting
import RaceBugs

/// Phase k: exploring schedules. For each of the ten race bugs of the tests (the `RaceBugs`
/// target: the same programs) and each strategy, how many schedules it takes to find the bug, over 20 seeds; and what a schedule costs
/// against a plain run of the same test.
enum Schedules {
  static let seeds: [UInt64] = (1...20).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 }
  static let cap = 1_000

  /// A small async test whose result does not depend on the order: ten tasks adding to an actor.
  actor Total {
    var value = 0
    func add(_ amount: Int) { value += amount }
  }

  static func orderIndependent() async -> Bool {
    let scheduler = TestScheduler()
    let total = Total()
    for amount in 1...10 {
      Task {
        await Task.yield()
        await total.add(amount)
      }
    }
    scheduler.run()
    return await total.value == 55
  }

  /// The same test written the way the code is written: ten tasks awaited, in a world of its own
  /// (what `.virtualTime` and an exploration's run open), with no scheduler driven by the test.
  static func orderIndependentAwaited() async -> Bool {
    await withVirtualTime { _ in
      let total = Total()
      await withTaskGroup(of: Void.self) { group in
        for amount in 1...10 {
          group.addTask {
            await Task.yield()
            await total.add(amount)
          }
        }
      }
      return await total.value == 55
    }
  }

  static func strategy(_ name: String, seed: UInt64, schedule: Int, length: Int)
    -> any ScheduleStrategy
  {
    switch name {
    case "random walk": RandomWalkStrategy(seed: seed &+ UInt64(schedule))
    case "PCT depth 1": PCTStrategy(depth: 1, length: length, seed: seed &+ UInt64(schedule))
    case "PCT depth 2": PCTStrategy(depth: 2, length: length, seed: seed &+ UInt64(schedule))
    case "PCT depth 3": PCTStrategy(depth: 3, length: length, seed: seed &+ UInt64(schedule))
    default: FIFOStrategy()
    }
  }

  static func run(_ schedule: ScheduleRun, _ body: () async -> Bool) async -> Bool {
    await ScheduleRun.$current.withValue(schedule) { await body() }
  }

  /// How many schedules `strategy` runs before `body` fails (schedule 0 is FIFO's), or `nil`
  /// within the cap.
  static func schedulesToFind(
    _ body: () async -> Bool, strategy name: String, seed: UInt64, length: Int
  ) async -> Int? {
    if name == "portfolio" {
      let outcome = await ScheduleExplorer.explore(count: cap, seed: seed) { schedule in
        await run(schedule, body)
      }
      return outcome.failure.map { $0.schedule + 1 }
    }
    for number in 0..<cap {
      let strategy =
        number == 0
        ? FIFOStrategy() : self.strategy(name, seed: seed, schedule: number, length: length)
      if await !run(ScheduleRun(strategy), body) { return number + 1 }
      if name == "FIFO" { return nil }
    }
    return nil
  }

  static func phase() async {
    let strategies = [
      "FIFO", "random walk", "PCT depth 1", "PCT depth 2", "PCT depth 3", "portfolio",
    ]
    for bug in RaceBugs.all {
      let body = bug.program
      let fifo = ScheduleRun(FIFOStrategy())
      _ = await run(fifo, body)
      let length = max(1, fifo.choices.count)
      for name in strategies {
        var found: [Int] = []
        for seed in seeds {
          if let count = await schedulesToFind(body, strategy: name, seed: seed, length: length) {
            found.append(count)
          }
        }
        found.sort()
        let median = found.isEmpty ? "-" : "\(found[found.count / 2])"
        let worst = found.last.map(String.init) ?? "-"
        print(
          "k. \(bug.name) (\(bug.fewestDepartures)), \(name)"
            .padding(toLength: 56, withPad: " ", startingAt: 0)
            + "found \(found.count)/20, schedules median \(median), max \(worst)")
      }
    }
    // The cost of a schedule: 100 explored schedules against 100 plain runs of the same test.
    let plain = await Harness.median {
      var passed = 0
      for _ in 0..<100 where await orderIndependent() { passed += 1 }
      return passed
    }
    let explored = await Harness.median {
      let outcome = await ScheduleExplorer.explore(count: 100, seed: 42) { schedule in
        await run(schedule) { await orderIndependent() }
      }
      return outcome.schedulesRun
    }
    // The same for the test that awaits (47.7): each run in a world of its own, plain and
    // explored — an exploration's run is what `exploreSchedules` and the trait run.
    let plainAwaited = await Harness.median {
      var passed = 0
      for _ in 0..<100 where await orderIndependentAwaited() { passed += 1 }
      return passed
    }
    let exploredAwaited = await Harness.median {
      let outcome = await ScheduleExplorer.explore(count: 100, seed: 42) { schedule in
        await run(schedule) { await orderIndependentAwaited() }
      }
      return outcome.schedulesRun
    }
    print(
      Harness.Measurement(
        name: "k. 100 plain runs of a small async test", seconds: plain, items: 100
      )
      .line)
    print(
      Harness.Measurement(
        name: "k. 100 explored schedules of it", seconds: explored, items: 100, baseline: plain
      ).line)
    print(
      Harness.Measurement(
        name: "k. 100 plain runs of it, awaited in a world", seconds: plainAwaited, items: 100
      )
      .line)
    print(
      Harness.Measurement(
        name: "k. 100 explored schedules of that", seconds: exploredAwaited, items: 100,
        baseline: plainAwaited
      ).line)
  }
}

/// Medians and lines as the Benchmarks package's harness prints them.
enum Harness {
  static let repetitions = 5

  struct Measurement {
    var name: String
    var seconds: Double
    var items: Int
    var baseline: Double? = nil

    var line: String {
      let perItem = seconds / Double(items) * 1e9
      let ratio = baseline.map { String(format: "%8.2fx", seconds / $0) } ?? "        -"
      return name.padding(toLength: 46, withPad: " ", startingAt: 0)
        + String(format: "%9.4f s %10.1f ns/item", seconds, perItem) + ratio
    }
  }

  /// The median of `repetitions` timings of `body`, in seconds.
  static func median(_ body: () async -> Int) async -> Double {
    var times: [Double] = []
    for _ in 0..<repetitions {
      let start = DispatchTime.now().uptimeNanoseconds
      _ = await body()
      times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    return times.sorted()[times.count / 2]
  }
}

print("k. exploring schedules (ExplorationBenchmark, release build)")
await Schedules.phase()
