import Foundation

/// Phase g's process comparison: the bare `AsyncStream` loop in a process that links Marbles but
/// makes no scheduler, against the same loop in a process that does not link it, run alternately
/// so that the machine's drift falls on both.
enum SideProcesses {
  /// The sibling executables, built beside this one (`swift build -c release` builds all three).
  static func executable(_ name: String) -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent(name).path
  }

  /// The median of one process's own median, in seconds.
  static func run(_ name: String) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable(name))
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Double(
      String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  static func compare(rounds: Int = 7) {
    var alone: [Double] = []
    var linking: [Double] = []
    for _ in 0..<rounds {
      guard let without = run("StreamLoopAlone"), let with = run("StreamLoopLinkingMarbles") else {
        print("g. process comparison: build all products first (swift build -c release)")
        return
      }
      alone.append(without)
      linking.append(with)
    }
    let withoutMedian = alone.sorted()[rounds / 2]
    let withMedian = linking.sorted()[rounds / 2]
    let items = 100_000
    print(
      Harness.Measurement(
        name: "g. bare loop, process without Marbles", seconds: withoutMedian, items: items
      ).line)
    print(
      Harness.Measurement(
        name: "g. bare loop, process linking Marbles", seconds: withMedian, items: items,
        baseline: withoutMedian
      ).line)
  }
}
