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

  /// An awaiting test of another shape: two `async let` children that sleep to the same tick,
  /// then add to an actor (fewer hops onto an actor for its steps than the ten tasks above).
  static func sleepersAwaited() async -> Bool {
    await withVirtualTime { _ in
      let total = Total()
      async let first: Void = {
        try? await Task.sleep(for: .milliseconds(10))
        await total.add(1)
      }()
      async let second: Void = {
        try? await Task.sleep(for: .milliseconds(10))
        await total.add(2)
      }()
      _ = await (first, second)
      return await total.value == 3
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
    await cost()
  }

  /// How many runs, and schedules, one round of the cost measurement times.
  static let runsPerRound = 1_000
  /// Rounds of the cost measurement, plain and explored alternating.
  static let rounds = 11

  /// The cost of a schedule: 1,000 explored schedules against 1,000 plain runs of the same test,
  /// in alternating rounds (a round's ratio compares two timings taken moments apart, so a machine
  /// that slows down or speeds up in between moves both); the median of the rounds' ratios, and
  /// their range. (100 of each, timed 5 times, gave ratios from 1.4× to 2.4× between runs.)
  static func cost(onlySide: String? = nil) async {
    // `BENCH_K_TEST=text`: only the tests whose name holds it (for a profiler).
    let only = ProcessInfo.processInfo.environment["BENCH_K_TEST"]
    func plainRuns(_ test: () async -> Bool) async -> Double {
      await Harness.time {
        var passed = 0
        for _ in 0..<runsPerRound where await test() { passed += 1 }
        precondition(passed == runsPerRound)
      }
    }
    func exploredRuns(_ test: @escaping () async -> Bool) async -> Double {
      await Harness.time {
        // NB: a test whose whole tree is small is run whole in a few schedules, and its
        // exploration stops there: explored again until it has run as many as the plain side.
        var schedules = 0
        var seed: UInt64 = 42
        while schedules < runsPerRound {
          let outcome = await ScheduleExplorer.explore(count: runsPerRound - schedules, seed: seed)
          {
            schedule in await run(schedule) { await test() }
          }
          precondition(outcome.failure == nil)
          precondition(outcome.schedulesRun == runsPerRound - schedules || outcome.isExhaustive)
          schedules += outcome.schedulesRun
          seed += 1
        }
      }
    }
    for (name, test) in [
      ("a small async test", orderIndependent as () async -> Bool),
      ("it awaited in a world", orderIndependentAwaited),
      ("two sleepers awaited in a world", sleepersAwaited),
    ] where only.map({ name.contains($0) }) ?? true {
      var plain: [Double] = []
      var explored: [Double] = []
      for _ in 0..<rounds {
        if let side = onlySide {
          // For a profiler: one side only, nothing compared.
          _ = side == "plain" ? await plainRuns(test) : await exploredRuns(test)
          continue
        }
        plain.append(await plainRuns(test))
        explored.append(await exploredRuns(test))
      }
      if onlySide != nil { continue }
      let ratios = zip(explored, plain).map { $0 / $1 }.sorted()
      let median = { (values: [Double]) in values.sorted()[values.count / 2] }
      print(
        "k. \(runsPerRound) schedules of \(name): plain "
          + String(format: "%.1f", median(plain) / Double(runsPerRound) * 1e6)
          + " µs a run, explored "
          + String(format: "%.1f", median(explored) / Double(runsPerRound) * 1e6)
          + " µs a schedule, "
          + String(
            format: "%.2fx (rounds %.2f–%.2f)", ratios[ratios.count / 2], ratios.first!,
            ratios.last!)
      )
    }
    guard onlySide == nil else { return }
    // What a world costs once one of 20,000 tasks has come and gone: the registry's tables keep
    // the size they grew to, and a world's close that looked at every slot of them took a tenth
    // longer for the rest of the process (the ninth stop).
    let median = { (values: [Double]) in values.sorted()[values.count / 2] }
    var before: [Double] = []
    for _ in 0..<rounds { before.append(await plainRuns(orderIndependentAwaited)) }
    await withVirtualTime { _ in
      await withTaskGroup(of: Void.self) { group in
        for index in 0..<20_000 {
          group.addTask { try? await Task.sleep(for: .milliseconds(index % 100 + 1)) }
        }
      }
    }
    var after: [Double] = []
    for _ in 0..<rounds { after.append(await plainRuns(orderIndependentAwaited)) }
    print(
      "k. it awaited, after a world of 20,000 tasks: plain "
        + String(format: "%.1f", median(after) / Double(runsPerRound) * 1e6) + " µs a run, before "
        + String(format: "%.1f", median(before) / Double(runsPerRound) * 1e6)
        + String(format: " µs (%.2fx)", median(after) / median(before)))
  }
}

/// Timings.
enum Harness {
  /// How long `body` takes, in seconds.
  static func time(_ body: () async -> Void) async -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }
}

print("k. exploring schedules (ExplorationBenchmark, release build)")
// `BENCH_K_COST=1`: only the cost of a schedule; `plain` or `explored`: only that side, timed
// nothing (for a profiler).
if let side = ProcessInfo.processInfo.environment["BENCH_K_COST"] {
  await Schedules.cost(onlySide: side == "1" ? nil : side)
} else {
  await Schedules.phase()
}
