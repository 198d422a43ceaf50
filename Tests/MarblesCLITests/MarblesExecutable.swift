import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one run of the `marbles` executable printed, and how it ended.
struct CommandOutput: Sendable, CustomStringConvertible {
  /// The exit status.
  var status: Int32
  /// Standard output, as text.
  var stdout: String
  /// Standard error, as text.
  var stderr: String

  /// The lines of standard output.
  var stdoutLines: [Substring] { stdout.split(separator: "\n", omittingEmptySubsequences: false) }

  /// All three, for a failing expectation's message.
  var description: String {
    "exit status \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)---"
  }
}

/// Runs the built `marbles` executable as a subprocess, from the package root, the way a user or
/// a CI job does.
enum MarblesExecutable {
  /// The package root: three levels above this file (`Tests/MarblesCLITests/<file>`).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// How long a run may take before it is stopped (it never should come close).
  static let timeLimit: DispatchTimeInterval = .seconds(120)

  /// The executable: `$MARBLES_EXECUTABLE` if set, else `marbles` next to the test bundle (the
  /// build products folder `swift test` used, whatever its scratch path), else
  /// `.build/debug/marbles` under the package root.
  ///
  /// The test target depends on the `marbles` target, so `swift test` and `swift build
  /// --build-tests` build the executable before the tests run. Building it from here instead
  /// would wait forever on the lock of the `swift test` that is running us.
  static func location() throws -> URL {
    var candidates: [URL] = []
    if let override = ProcessInfo.processInfo.environment["MARBLES_EXECUTABLE"], !override.isEmpty {
      candidates.append(URL(fileURLWithPath: override))
    }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      candidates.append(
        bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("marbles"))
    }
    if let program = CommandLine.arguments.first {
      candidates.append(
        URL(fileURLWithPath: program).deletingLastPathComponent().appendingPathComponent("marbles"))
    }
    candidates.append(packageRoot.appendingPathComponent(".build/debug/marbles"))
    for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
    throw MissingExecutable(searched: candidates.map(\.path))
  }

  /// The `marbles` executable was not found.
  struct MissingExecutable: Error, CustomStringConvertible {
    /// Where it was looked for.
    var searched: [String]

    var description: String {
      "the marbles executable is not built (run `swift build --product marbles`); looked in: "
        + searched.joined(separator: ", ")
    }
  }

  /// Runs `marbles` (or `program`) with `arguments` from the package root (or `directory`).
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - environment: Variables to set (a nil value removes one). `NO_COLOR` is removed unless
  ///     given here, so the inherited environment cannot change a test's outcome.
  ///   - terminal: Whether standard output is a pseudo-terminal instead of a pipe.
  ///   - program: Another program to run, or `nil` for `marbles`.
  ///   - directory: Where to run it, or `nil` for the package root.
  ///   - timeLimit: How long it may take, or `nil` for ``timeLimit``.
  /// - Returns: What it printed and its exit status.
  static func run(
    _ arguments: [String], environment: [String: String?] = [:], terminal: Bool = false,
    program: URL? = nil, directory: URL? = nil, timeLimit: DispatchTimeInterval? = nil
  ) async throws -> CommandOutput {
    // NB: on a thread of its own: waiting for the child must not hold a cooperative thread.
    try await withCheckedThrowingContinuation { continuation in
      Thread {
        continuation.resume(
          with: Result {
            try runBlocking(
              arguments, environment: environment, terminal: terminal, program: program,
              directory: directory, timeLimit: timeLimit)
          })
      }.start()
    }
  }

  private static func runBlocking(
    _ arguments: [String], environment: [String: String?], terminal: Bool,
    program: URL?, directory: URL?, timeLimit: DispatchTimeInterval?
  ) throws -> CommandOutput {
    let process = Process()
    process.executableURL = try program ?? location()
    process.arguments = arguments
    process.currentDirectoryURL = directory ?? packageRoot
    var variables = ProcessInfo.processInfo.environment
    variables["NO_COLOR"] = nil
    for (name, value) in environment { variables[name] = value }
    process.environment = variables

    let errorPipe = Pipe()
    process.standardError = errorPipe
    let standardError = Reader(errorPipe.fileHandleForReading.fileDescriptor)
    let standardOutput: Reader
    var terminalFollower: Int32?
    if terminal {
      let (leader, follower) = try openPseudoTerminal()
      terminalFollower = follower
      process.standardOutput = FileHandle(fileDescriptor: follower, closeOnDealloc: false)
      standardOutput = Reader(leader, closesWhenDone: true)
    } else {
      let outputPipe = Pipe()
      process.standardOutput = outputPipe
      standardOutput = Reader(outputPipe.fileHandleForReading.fileDescriptor)
    }

    try process.run()
    // Only the child may hold the terminal's follower end now: the leader reads end of file (EIO)
    // once the child has exited.
    if let terminalFollower { close(terminalFollower) }
    let watchdog = DispatchWorkItem { [process] in
      if process.isRunning { process.terminate() }
    }
    DispatchQueue.global().asyncAfter(
      deadline: .now() + (timeLimit ?? Self.timeLimit), execute: watchdog)
    let output = standardOutput.wait()
    let error = standardError.wait()
    process.waitUntilExit()
    watchdog.cancel()
    return CommandOutput(
      status: process.terminationReason == .exit ? process.terminationStatus : -1,
      stdout: String(decoding: output, as: UTF8.self)
        .replacingOccurrences(of: "\r\n", with: "\n"),  // a terminal's line discipline adds \r
      stderr: String(decoding: error, as: UTF8.self))
  }

  /// A pseudo-terminal: the leader end the test reads, the follower end the child writes to.
  private static func openPseudoTerminal() throws -> (leader: Int32, follower: Int32) {
    func failure() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let leader = PseudoTerminal.open(O_RDWR | O_NOCTTY)
    guard leader >= 0 else { throw failure() }
    // `ptsname` returns a static buffer: one test at a time.
    let name: String? = PseudoTerminal.lock.withLock { _ in
      guard PseudoTerminal.grant(leader) == 0, PseudoTerminal.unlock(leader) == 0,
        let name = PseudoTerminal.name(leader)
      else { return nil }
      return String(cString: name)
    }
    guard let name else {
      close(leader)
      throw failure()
    }
    let follower = open(name, O_RDWR | O_NOCTTY)
    guard follower >= 0 else {
      close(leader)
      throw failure()
    }
    return (leader, follower)
  }

  /// Reads a file descriptor to its end on a background queue, so that a child writing a lot to
  /// one stream never blocks on a full pipe while the test waits on the other.
  private final class Reader: Sendable {
    private let collected = Mutex<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)

    init(_ descriptor: Int32, closesWhenDone: Bool = false) {
      DispatchQueue.global().async { [self] in
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
          if count > 0 {
            self.collected.withLock { $0 += buffer[..<count] }
          } else if count < 0 && errno == EINTR {
            continue
          } else {
            break  // End of file; or EIO from a terminal whose follower end is closed.
          }
        }
        if closesWhenDone { close(descriptor) }
        self.done.signal()
      }
    }

    /// Waits for the end of the stream and returns all it carried.
    func wait() -> Data {
      done.wait()
      return Data(collected.withLock { $0 })
    }
  }
}
