import Foundation
import MarbleTesting

// The side-by-side workloads of phase p (the Swift half; the Go half is Go/synctest), written
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

// NB: nonisolated, as a Swift Testing test is: top-level code runs on the main actor, and a
// `withVirtualTime` there would run its body on it, hopping off and back at every standard sleep —
// work that neither Go's side nor a `@Test` function does.
/// Runs the workload the command line names.
nonisolated func runWorkload(since start: ContinuousClock.Instant) async {
  switch CommandLine.arguments.dropFirst().first {
  case "W1":
    // 10,000 children sleeping 1…10,000 ms in a seeded order, awaited.
    let elapsed = await withVirtualTime { _ in
      let begin = ContinuousClock.now
      await withTaskGroup(of: Void.self) { group in
        for ms in seededOrder(10_000, seed: 42) {
          group.addTask { try? await Task.sleep(for: .milliseconds(ms)) }
        }
      }
      return begin.duration(to: .now)
    }
    report("W1", since: start, elapsed: elapsed, expected: .seconds(10))
  case "W1-unstructured":
    // W1 with unstructured tasks awaited one by one, as Go's goroutines and WaitGroup are: no
    // task group, whose runtime walks its list of children at each child's end (a list of
    // 10,000 here; most of W1's time).
    let elapsed = await withVirtualTime { _ in
      let begin = ContinuousClock.now
      let tasks = seededOrder(10_000, seed: 42).map { ms in
        Task { try? await Task.sleep(for: .milliseconds(ms)) }
      }
      for task in tasks { await task.value }
      return begin.duration(to: .now)
    }
    report("W1-unstructured", since: start, elapsed: elapsed, expected: .seconds(10))
  case "W2":
    // 100,000 sequential 1 ms sleeps.
    let elapsed = await withVirtualTime { _ in
      let begin = ContinuousClock.now
      for _ in 0..<100_000 { try? await Task.sleep(for: .milliseconds(1)) }
      return begin.duration(to: .now)
    }
    report("W2", since: start, elapsed: elapsed, expected: .seconds(100))
  case "W3":
    // 10,000 fresh worlds, each a 1 s sleep raced against a 2 s timeout.
    var sleeps = 0
    for _ in 0..<10_000 {
      let winner = await withVirtualTime { _ in
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
      if winner == "sleep" { sleeps += 1 }
    }
    guard sleeps == 10_000 else { fail("W3: the sleep won \(sleeps) of 10000") }
    report("W3", since: start, check: "sleep-won=\(sleeps)")
  case "W4":
    // 100,000 messages ping-ponged over two streams, a 1 ms sleep before each hop.
    let (received, elapsed) = await withVirtualTime { _ in
      let begin = ContinuousClock.now
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
      return (received, begin.duration(to: .now))
    }
    guard received == 100_000, elapsed == .seconds(100) else {
      fail("W4: \(received) messages in \(elapsed), want 100000 in 100 s")
    }
    report("W4", since: start, check: "messages=\(received) virtual=\(elapsed)")
  default:
    fail("usage: SynctestWorkloads W1|W1-unstructured|W2|W3|W4")
  }
}

// NB: the real clock, read outside any world (a world's readings are virtual).
await runWorkload(since: ContinuousClock.now)
