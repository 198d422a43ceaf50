import Foundation
import MarbleTesting
import Synchronization

/// Phase n: determinism at scale. 10,000 fresh worlds, each racing a 1 s sleep against a 2 s
/// timeout (the sleep must win, at exactly 1,000 ms), run `rounds` times while two threads keep
/// both cores busy: every world must be right. `BENCH_N_ROUNDS` sets the rounds (100 by default),
/// `BENCH_N_BUSY` the busy threads (2 by default; more preempt the world's threads more often, at
/// more points, which makes a rare race between them show sooner).
enum DeterminismAtScale {
  static let worlds = 10_000
  static var rounds: Int {
    ProcessInfo.processInfo.environment["BENCH_N_ROUNDS"].flatMap(Int.init) ?? 100
  }

  static var busyThreads: Int {
    ProcessInfo.processInfo.environment["BENCH_N_BUSY"].flatMap(Int.init) ?? 2
  }

  enum Winner: Sendable { case work, timeout }

  /// One fresh world: the work's 1 s sleep raced against a 2 s timeout.
  static func race() async -> (Winner, Int) {
    await withVirtualTime { scheduler in
      let winner = await withTaskGroup(of: Winner.self) { group in
        group.addTask {
          try? await Task.sleep(for: .seconds(1))
          return .work
        }
        group.addTask {
          try? await Task.sleep(for: .seconds(2))
          return .timeout
        }
        let first = await group.next()!
        group.cancelAll()
        return first
      }
      return (winner, scheduler.now)
    }
  }

  /// Whether the busy loops go on.
  final class Flag: Sendable {
    let isSet = Atomic(false)
  }

  /// Threads that keep the cores busy until `stop` is set.
  static func busyLoops(until stop: Flag) {
    for _ in 0..<busyThreads {
      Thread {
        var spin = 0
        while !stop.isSet.load(ordering: .relaxed) { spin &+= 1 }
        _ = spin
      }.start()
    }
  }

  static func run() async {
    let stop = Flag()
    busyLoops(until: stop)
    defer { stop.isSet.store(true, ordering: .relaxed) }
    let rounds = rounds
    var wrong = 0
    var wrongTimes = 0
    /// The first worlds that ended at the wrong tick: their tick and winner, to say what happened.
    var wrongEnds: [String] = []
    let start = ContinuousClock.now
    for _ in 0..<rounds {
      for _ in 0..<worlds {
        let (winner, now) = await race()
        if winner != .work { wrong += 1 }
        if now != 1000 {
          wrongTimes += 1
          if wrongEnds.count < 10 { wrongEnds.append("tick \(now), \(winner)") }
        }
      }
    }
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    let total = rounds * worlds
    print(
      "n. \(total) fresh worlds (\(rounds) × \(worlds)), 1 s work raced against a 2 s timeout, "
        + "\(busyThreads) busy loops on the cores: \(wrong) wrong winners, \(wrongTimes) at the wrong tick, "
        + String(format: "%.1f s, %.1f µs per world", seconds, seconds / Double(total) * 1e6)
        + (wrongEnds.isEmpty ? "" : " (ended at: \(wrongEnds.joined(separator: "; ")))"))
    if wrong + wrongTimes > 0 { exit(1) }
  }
}
