import Foundation
import MarbleTesting
import Synchronization

/// Phase m: a scheduler that starts a task every tick for 10 million ticks (`TASK_TICKS`): its
/// memory stays flat — the tasks that ended are let go, with their records and numbers.
enum TaskEveryTick {
  static let ticks = Int(ProcessInfo.processInfo.environment["TASK_TICKS"] ?? "") ?? 10_000_000

  /// This process's resident memory, in MiB (Linux; 0 where it cannot be read).
  static func residentMiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
  }

  /// Runs the ticks; returns the resident memory before and at each tenth. (Timed by the caller:
  /// inside the scheduler's world every reading of time is virtual.)
  static func ticksAndMemory() -> (before: Int, tenths: [Int]) {
    let scheduler = TestScheduler()
    let started = Mutex(0)
    let handle = scheduler.schedule(after: .milliseconds(1), interval: .milliseconds(1)) {
      scheduler.task { started.withLock { $0 += 1 } }
    }
    let before = residentMiB()
    var tenths: [Int] = []
    for _ in 0..<10 {
      scheduler.advance(by: .milliseconds(ticks / 10))
      tenths.append(residentMiB())
    }
    handle.dispose()
    precondition(started.withLock { $0 } == ticks / 10 * 10)
    return (before, tenths)
  }

  static func run() {
    let start = DispatchTime.now().uptimeNanoseconds
    let (before, tenths) = ticksAndMemory()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print(
      "m. a task every tick, \(ticks) ticks".padding(toLength: 46, withPad: " ", startingAt: 0)
        + String(format: "%9.2f s", seconds)
        + "  resident MiB: \(before) before, by tenths \(tenths.map(String.init).joined(separator: " "))"
    )
  }
}
