import Foundation
import MarbleTesting
import Marbles
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Never a hang: a deadlock whose waits cancellation cannot end (a continuation nobody resumes)
/// fails the test with its report, then ends the test process with a non-zero status within the
/// stall timeout, as Go's synctest panics; outside tests a world that gives up ends the process
/// the same way; and a test process whose runner was killed does not run on.
@Suite struct NeverHangsTests {
  @Test func aContinuationNobodyResumesEndsTheProcessAfterTheReport() async {
    let stderr = Mutex("")
    await withKnownIssue {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await withVirtualTime(stallTimeout: .milliseconds(300)) { _ in
          await withCheckedContinuation { (_: CheckedContinuation<Void, Never>) in }
        }
      }
      stderr.withLock { $0 = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self) }
    } matching: { issue in
      // Recorded in the child process, before it ended, and carried to this test.
      issue.comments.first?.rawValue.hasPrefix("The test's world is deadlocked at tick 0") == true
    }
    let output = stderr.withLock { $0 }
    #expect(
      output.contains(
        "- the test waits in "
          + "NeverHangsTests.aContinuationNobodyResumesEndsTheProcessAfterTheReport() for a continuation"
      ), "\(output)")
    #expect(output.contains(EndingWatch.endingNotice), "\(output)")
  }

  /// A test whose waits do end after the report goes on: nothing ends its process.
  @Test func aWaitThatCancellationEndsDoesNotEndTheProcess() async {
    await withKnownIssue {
      await withVirtualTime(stallTimeout: .milliseconds(300)) { _ in
        _ = await AsyncStream<Int>.makeStream().stream.first { _ in true }
      }
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix("The test's world is deadlocked at tick 0") == true
    }
    // The watch looked for 0.3 s; this process is still here to say so.
    try? await Task.sleep(for: .milliseconds(600))
    #expect(Bool(true))
  }

  /// Outside tests, a deadlocked `withVirtualTime` is reported on standard error and ends the
  /// process with a non-zero status: in a tool linking Marbles, and in one linking MarbleTesting
  /// alone.
  @Test(arguments: ["WorldProbe", "WorldProbeBare"])
  func aDeadlockOutsideTestsEndsTheProcess(_ probe: String) async throws {
    let (status, output) = try await runTool([
      try WorldProbeTests.location(probe).path, "deadlock",
    ])
    #expect(status == 1, "\(output)")
    #expect(output.contains("error: The test's world is deadlocked at tick 0"), "\(output)")
    #expect(output.contains(EndingWatch.outsideTestsNotice), "\(output)")
    #expect(!output.contains("after the deadlock"), "\(output)")
  }

  /// A test process whose parent ends — `swift test` killed by a timeout — ends too, instead of
  /// running on unread: here a shell starts the child (a test that sleeps a minute of real time
  /// in a world that waits on a thread) and ends a second later.
  /// Also where the runner ends while no world is open any more: on 2026-11-29's `main` the
  /// parent was looked at only while a world was open, and such a process ran on (one was found
  /// 76 minutes later, waiting for a child of its own). And where the runner ended before the
  /// first world opened: the parent was noted as that world opened, so the process that had
  /// taken the orphan in was noted, and the process ran on (CI, 2026-11-29: the child had not
  /// opened its world within the shell's second).
  /// The shell ends once the child's test has started (it writes a file), not after a fixed time.
  @Test(arguments: [
    "orphanFixture", "orphanAfterItsWorldClosedFixture", "orphanWhoseWorldOpensLaterFixture",
  ])
  func aTestProcessWhoseRunnerEndsEndsToo(_ fixture: String) async throws {
    let folder = Platform.temporaryFolder + "/marbles-orphan-\(getpid())-\(fixture)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let pidFile = folder + "/pid"
    let startedFile = folder + "/started"
    let command =
      "MARBLES_ORPHAN_CHILD='\(startedFile)' '\(CommandLine.arguments[0])' "
      + "--testing-library swift-testing --filter 'NeverHangsTests/\(fixture)' "
      + ">/dev/null 2>&1 & echo $! > '\(pidFile)'; i=0; "
      + "while [ ! -e '\(startedFile)' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done"
    // NB: no pipe: the shell's child, still running, would hold it open.
    let shell = Process()
    shell.executableURL = URL(fileURLWithPath: "/bin/sh")
    shell.arguments = ["-c", command]
    shell.standardOutput = FileHandle.nullDevice
    shell.standardError = FileHandle.nullDevice
    try shell.run()
    // NB: the shell is not waited for first: Foundation's wait for it ends only once the child
    // has ended too. It has written the child's pid before its one second of sleep.
    var written: String?
    for _ in 0..<100 where written?.hasSuffix("\n") != true {
      try await Task.sleep(for: .milliseconds(100))
      written = try? String(contentsOfFile: pidFile, encoding: .utf8)
    }
    let pid = try #require(Int32(written?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
    // The child notes its parent at its first world, and looks at least every half second.
    var isAlive = true
    for _ in 0..<100 where isAlive {
      try await Task.sleep(for: .milliseconds(100))
      isAlive = Self.isRunning(pid)
    }
    if isAlive { kill(pid, SIGKILL) }
    #expect(!isAlive, "the orphaned test process ran on")
    try await offThePool { shell.waitUntilExit() }
    #expect(shell.terminationStatus == 0)
  }

  /// Run by `aTestProcessWhoseRunnerEndsEndsToo` in a process of its own (it does nothing in the
  /// suite's own run).
  @Test func orphanFixture() async {
    guard Self.orphanHasStarted() else { return }
    await Self.waitAMinuteInAWorld()
  }

  /// Waits a minute of real time in a world, on a continuation a thread resumes.
  static func waitAMinuteInAWorld() async {
    await withVirtualTime(stallTimeout: .seconds(120)) { _ in
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
          Thread.sleep(forTimeInterval: 60)
          continuation.resume()
        }.start()
      }
    }
  }

  /// Run by `aTestProcessWhoseRunnerEndsEndsToo` in a process of its own: a world opens and
  /// closes, then the test waits a minute in real time with no world open.
  @Test func orphanAfterItsWorldClosedFixture() async throws {
    guard Self.orphanHasStarted() else { return }
    withVirtualTime { _ in }
    try await offThePool { Thread.sleep(forTimeInterval: 60) }
  }

  /// Run by `aTestProcessWhoseRunnerEndsEndsToo` in a process of its own: the first world opens
  /// once the runner has ended, then waits a minute in real time on a thread.
  @Test func orphanWhoseWorldOpensLaterFixture() async throws {
    guard Self.orphanHasStarted() else { return }
    let runner = getppid()
    for _ in 0..<200 where getppid() == runner {
      try await Task.sleep(for: .milliseconds(50))
    }
    await Self.waitAMinuteInAWorld()
  }

  /// In an orphan fixture's own process, writes the file its shell waits for and says `true`.
  static func orphanHasStarted() -> Bool {
    guard let started = ProcessInfo.processInfo.environment["MARBLES_ORPHAN_CHILD"] else {
      return false
    }
    _ = FileManager.default.createFile(atPath: started, contents: Data())
    return true
  }

  /// Whether process `pid` exists and is not a zombie.
  static func isRunning(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
      return true
    }
    return !stat.contains(") Z ")
  }
}
