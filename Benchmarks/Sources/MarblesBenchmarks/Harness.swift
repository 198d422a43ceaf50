import Dispatch
import Foundation
import MallocStats

/// Runs a phase five times and reports the median, so one slow run (the other core busy) does not
/// decide the figure.
struct Harness {
  /// 5, or `BENCH_REPETITIONS` (1 for a profiler run under valgrind).
  static let repetitions = Int(ProcessInfo.processInfo.environment["BENCH_REPETITIONS"] ?? "") ?? 5

  struct Measurement {
    var name: String
    var seconds: Double
    var items: Int
    var baseline: Double?

    var line: String {
      let perItem = seconds / Double(items) * 1e9
      let ratio = baseline.map { String(format: "%8.2fx", seconds / $0) } ?? "        -"
      return name.padding(toLength: 46, withPad: " ", startingAt: 0)
        + String(format: "%9.4f s %10.1f ns/item", seconds, perItem) + ratio
    }
  }

  /// A line that gives one measured time as a multiple of another (`0.85x` is faster).
  static func comparison(_ name: String, ratio: Double) -> String {
    name.padding(toLength: 46, withPad: " ", startingAt: 0)
      + String(repeating: " ", count: 33) + String(format: "%8.2fx", ratio)
  }

  /// The median wall time of `body` over the repetitions. `body` returns a value that is consumed,
  /// so the optimizer cannot drop the work.
  /// ``median(_:)`` for async work.
  static func median(_ body: () async -> Int) async -> Double {
    var times: [Double] = []
    var sink = 0
    for _ in 0..<repetitions {
      let start = DispatchTime.now().uptimeNanoseconds
      sink &+= await body()
      let end = DispatchTime.now().uptimeNanoseconds
      times.append(Double(end - start) / 1e9)
    }
    consume(sink)
    return times.sorted()[repetitions / 2]
  }

  static func median(_ body: () -> Int) -> Double {
    var times: [Double] = []
    var sink = 0
    for _ in 0..<repetitions {
      let start = DispatchTime.now().uptimeNanoseconds
      sink &+= body()
      let end = DispatchTime.now().uptimeNanoseconds
      times.append(Double(end - start) / 1e9)
    }
    consume(sink)
    return times.sorted()[repetitions / 2]
  }

  @inline(never)
  static func consume(_ value: Int) {
    if value == 0x5EED_5EED { print("") }
  }

  /// The bytes malloc has handed out and not taken back (glibc's `mallinfo2`); 0 elsewhere.
  static func heapInUse() -> Int {
    malloc_stats_in_use()
  }

  /// The process's peak resident memory, from /proc (Linux); `nil` elsewhere.
  static func peakMemoryKiB() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
      return nil
    }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
      return Int(line.split(separator: " ").dropFirst().first ?? "")
    }
    return nil
  }
}
