import Foundation
import MarbleTesting
import NoWaitsWorkload
import Synchronization

// The side-by-side workloads of phase p (the Swift half; the Go half is Go/synctest), and phase
// q's in processes of their own (`Q`, `Q-plain`), written
// with `withVirtualTime` the way the Go side is written with `synctest.Test`: one workload per
// process (`SynctestWorkloads W1`), checked, and one line printed — the workload, its real and
// user CPU time, its peak memory and what it checked — that phase p reads.

/// The line phase p reads, with this process's CPU time and peak memory.
func report(_ name: String, since start: ContinuousClock.Instant, check: String) {
  let real = start.duration(to: .now)
  var usage = rusage()
  #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
  #else
    getrusage(RUSAGE_SELF, &usage)  // Darwin: written for, not built here
  #endif
  let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
  let seconds = Double(real.components.seconds) + Double(real.components.attoseconds) / 1e18
  // NB: on Linux, VmHWM, which exec resets: getrusage's maxrss keeps the high-water mark of the
  // process that started this one.
  var peak = Int(usage.ru_maxrss)
  if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
    let kib = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
  {
    peak = kib
  }
  print(
    "RESULT \(name) real=\(String(format: "%.6f", seconds)) user=\(String(format: "%.6f", user)) "
      + "maxrss_kib=\(peak) check=\(check)")
}

/// Reports a workload whose check is its virtual elapsed time, or ends the process if it is not
/// `expected`.
func report(
  _ name: String, since start: ContinuousClock.Instant, elapsed: Duration, expected: Duration
) {
  guard elapsed == expected else { fail("\(name): virtual elapsed \(elapsed), want \(expected)") }
  report(name, since: start, check: "virtual=\(elapsed)")
}

/// Ends the process, saying what was wrong.
func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data((message + "\n").utf8))
  exit(1)
}

/// A seeded order of 1…n (a Fisher–Yates shuffle on a SplitMix64 stream).
func seededOrder(_ n: Int, seed: UInt64) -> [Int] {
  var state = seed
  func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  var order = Array(1...n)
  for index in stride(from: n - 1, to: 0, by: -1) {
    order.swapAt(index, Int(next() % UInt64(index + 1)))
  }
  return order
}

/// How a workload reads the time elapsed on the virtual clock it runs on.
typealias Elapsed = @Sendable () -> Duration

/// The workloads, each written once and run in a world (``runWorkload(since:)``) or on the
/// runtime's floor (``FloorExecutor``).
enum Workloads {
  /// W1: 10,000 children sleeping 1…10,000 ms in a seeded order, awaited.
  static func w1(_ elapsed: Elapsed) async -> Duration {
    await withTaskGroup(of: Void.self) { group in
      for ms in seededOrder(10_000, seed: 42) {
        group.addTask { try? await Task.sleep(for: .milliseconds(ms)) }
      }
    }
    return elapsed()
  }

  /// W1 with unstructured tasks awaited one by one, as Go's goroutines and WaitGroup are: no
  /// task group, whose runtime walks its list of children at each child's end (a list of 10,000
  /// here; most of W1's time).
  static func w1Unstructured(_ elapsed: Elapsed) async -> Duration {
    let tasks = seededOrder(10_000, seed: 42).map { ms in
      Task { try? await Task.sleep(for: .milliseconds(ms)) }
    }
    for task in tasks { await task.value }
    return elapsed()
  }

  /// W2: 100,000 sequential 1 ms sleeps.
  static func w2(_ elapsed: Elapsed) async -> Duration {
    for _ in 0..<100_000 { try? await Task.sleep(for: .milliseconds(1)) }
    return elapsed()
  }

  /// One round of W3: a 1 s sleep raced against a 2 s timeout; the winner.
  static func w3Race() async -> String {
    await withTaskGroup(of: String.self) { group in
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
  }

  /// W4: 100,000 messages ping-ponged over two streams, a 1 ms sleep before each hop; the
  /// messages received.
  static func w4(_ elapsed: Elapsed) async -> (received: Int, elapsed: Duration) {
    let (ping, pinging) = AsyncStream<Int>.makeStream()
    let (pong, ponging) = AsyncStream<Int>.makeStream()
    let echo = Task {
      for await message in ping {
        try? await Task.sleep(for: .milliseconds(1))
        ponging.yield(message + 1)
      }
      ponging.finish()
    }
    var received = 0
    var replies = pong.makeAsyncIterator()
    for index in 0..<50_000 {
      try? await Task.sleep(for: .milliseconds(1))
      pinging.yield(index)
      _ = await replies.next()
      received += 2
    }
    pinging.finish()
    await echo.value
    return (received, elapsed())
  }
}

/// Checks W3's winners and reports them.
func reportW3(_ name: String, since start: ContinuousClock.Instant, sleeps: Int) {
  guard sleeps == 10_000 else { fail("\(name): the sleep won \(sleeps) of 10000") }
  report(name, since: start, check: "sleep-won=\(sleeps)")
}

/// Checks phase q's pushes, 1,000 rounds of 1,000, and reports them.
func reportQ(_ name: String, since start: ContinuousClock.Instant, pushed: Int) {
  guard pushed == 1_000_000 else { fail("\(name): \(pushed) pushed, want 1000000") }
  report(name, since: start, check: "pushed=\(pushed)")
}

/// Checks W4's count and virtual elapsed time and reports them.
func reportW4(_ name: String, since start: ContinuousClock.Instant, _ result: (Int, Duration)) {
  guard result.0 == 100_000, result.1 == .seconds(100) else {
    fail("\(name): \(result.0) messages in \(result.1), want 100000 in 100 s")
  }
  report(name, since: start, check: "messages=\(result.0) virtual=\(result.1)")
}

/// Runs workload `name` in `withVirtualTime`, measured from `start`.
///
/// NB: nonisolated, as a Swift Testing test is: top-level code runs on the main actor, and a
/// `withVirtualTime` there would run its body on it, hopping off and back at every standard sleep —
/// work that neither Go's side nor a `@Test` function does.
nonisolated func runWorkload(_ name: String, since start: ContinuousClock.Instant) async {
  /// Runs `workload` in a world, with the world's elapsed time.
  func inAWorld<T: Sendable>(_ workload: @escaping (Elapsed) async -> T) async -> T {
    await withVirtualTime { _ in
      let begin = ContinuousClock.now
      return await workload { begin.duration(to: .now) }
    }
  }
  switch name {
  case "W1":
    report(name, since: start, elapsed: await inAWorld(Workloads.w1), expected: .seconds(10))
  case "W1-unstructured":
    report(
      name, since: start, elapsed: await inAWorld(Workloads.w1Unstructured), expected: .seconds(10))
  case "W2":
    report(name, since: start, elapsed: await inAWorld(Workloads.w2), expected: .seconds(100))
  case "W3":
    // 10,000 fresh worlds, one race in each.
    var sleeps = 0
    for _ in 0..<10_000 where await withVirtualTime({ _ in await Workloads.w3Race() }) == "sleep" {
      sleeps += 1
    }
    reportW3(name, since: start, sleeps: sleeps)
  case "W4":
    reportW4(name, since: start, await inAWorld(Workloads.w4))
  case "Q":
    // Phase q's workload, 1,000 rounds, a world each.
    var pushed = 0
    for _ in 0..<1_000 { pushed += await withVirtualTime { _ in await NoWaitsWorkload.run() } }
    reportQ(name, since: start, pushed: pushed)
  case "Q-plain":
    // The same, each round in a detached task, with no world, as phase q's plain side runs.
    var pushed = 0
    for _ in 0..<1_000 { pushed += await Task.detached { await NoWaitsWorkload.run() }.value }
    reportQ(name, since: start, pushed: pushed)
  default:
    fail("usage: SynctestWorkloads W1|W1-unstructured|W2|W3|W4|Q [floor] | Q-plain")
  }
}

/// Runs workload `name` on the runtime's floor (``FloorExecutor``), measured from `start`: no
/// world; W3's 10,000 races run one after another on the one executor.
func runOnTheFloor(_ name: String, since start: ContinuousClock.Instant) {
  guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
    fail("the runtime's floor needs a runtime with an executor factory (the 26.4 releases)")
  }
  FloorExecutor.install()
  let floor = FloorExecutor.shared
  let elapsed: Elapsed = { floor.elapsed }
  let label = name + "-floor"
  /// Runs `workload` on the floor; its result.
  func onTheFloor<T: Sendable>(_ workload: @escaping @Sendable (Elapsed) async -> T) -> T {
    let result = Mutex<T?>(nil)
    floor.run {
      let value = await workload(elapsed)
      result.withLock { $0 = value }
    }
    return result.withLock { $0 }!
  }
  switch name {
  case "W1":
    report(label, since: start, elapsed: onTheFloor(Workloads.w1), expected: .seconds(10))
  case "W1-unstructured":
    report(
      label, since: start, elapsed: onTheFloor(Workloads.w1Unstructured), expected: .seconds(10))
  case "W2":
    report(label, since: start, elapsed: onTheFloor(Workloads.w2), expected: .seconds(100))
  case "W3":
    let sleeps = onTheFloor { _ in
      var sleeps = 0
      for _ in 0..<10_000 where await Workloads.w3Race() == "sleep" { sleeps += 1 }
      return sleeps
    }
    reportW3(label, since: start, sleeps: sleeps)
  case "W4":
    reportW4(label, since: start, onTheFloor(Workloads.w4))
  case "Q":
    let pushed = onTheFloor { _ in
      var pushed = 0
      for _ in 0..<1_000 { pushed += await NoWaitsWorkload.run() }
      return pushed
    }
    reportQ(label, since: start, pushed: pushed)
  default:
    fail("usage: SynctestWorkloads W1|W1-unstructured|W2|W3|W4|Q [floor] | Q-plain")
  }
}

let arguments = CommandLine.arguments.dropFirst()
let workload = arguments.first ?? ""
// NB: the real clock, read outside any world (a world's readings are virtual).
if arguments.dropFirst().first == "floor" {
  runOnTheFloor(workload, since: ContinuousClock.now)
} else {
  await runWorkload(workload, since: ContinuousClock.now)
}
