import Foundation

/// Phase g's process comparison: the bare `AsyncStream` loop and main-actor hops in a process
/// that links Marbles but opens no world, against the same loops in a process that does not link
/// it, run alternately so that the machine's drift falls on both.
enum SideProcesses {
  /// The sibling executables, built beside this one (`swift build -c release` builds all three).
  static func executable(_ name: String) -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent(name).path
  }

  /// One process's own medians, in seconds: the stream loop's and the main-actor hops'.
  static func run(_ name: String) -> (stream: Double, mainActor: Double)? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable(name))
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let numbers = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
      .compactMap { Double($0) }
    guard numbers.count == 2 else { return nil }
    return (numbers[0], numbers[1])
  }

  static func compare(rounds: Int = 7) {
    var alone: [(stream: Double, mainActor: Double)] = []
    var linking: [(stream: Double, mainActor: Double)] = []
    for _ in 0..<rounds {
      guard let without = run("StreamLoopAlone"), let with = run("StreamLoopLinkingMarbles") else {
        print("g. process comparison: build all products first (swift build -c release)")
        return
      }
      alone.append(without)
      linking.append(with)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[rounds / 2] }
    let lines: [(String, Double, Double, Int)] = [
      ("bare loop", median(alone.map(\.stream)), median(linking.map(\.stream)), 100_000),
      ("main-actor hops", median(alone.map(\.mainActor)), median(linking.map(\.mainActor)), 20_000),
    ]
    for (name, without, with, items) in lines {
      print(
        Harness.Measurement(
          name: "g. \(name), process without Marbles", seconds: without, items: items
        ).line)
      print(
        Harness.Measurement(
          name: "g. \(name), process linking Marbles", seconds: with, items: items,
          baseline: without
        ).line)
    }
  }
}
