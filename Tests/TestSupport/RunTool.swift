import Foundation

/// Runs `arguments` through `/usr/bin/env` (a tool of the toolchain found on the `PATH`, or an
/// executable by its path) and returns its exit status with what it wrote to standard output and
/// standard error, together.
///
/// - Parameters:
///   - arguments: The command and its arguments.
///   - environment: Variables to set for it, on top of this process's.
public func runTool(
  _ arguments: [String], environment: [String: String] = [:]
) async throws -> (status: Int32, output: String) {
  try await offThePool { try runToolBlocking(arguments, environment: environment) }
}

/// Runs this test binary again, in a process of its own: the Swift Testing tests `filter`
/// matches, with `arguments` after it (`--skip`, say) — for a test that needs a process to itself
/// (one that opens the process's first world, or checks what a whole run left in place) or
/// several processes at once (record mode's cross-process journal).
///
/// - Parameters:
///   - filter: The `--filter` pattern.
///   - arguments: More arguments for the test runner.
///   - environment: Variables to set for it, on top of this process's (the fixtures the child
///     runs do nothing without theirs).
public func runTestsInAChildProcess(
  filter: String, _ arguments: [String] = [], environment: [String: String]
) async throws -> (status: Int32, output: String) {
  try await runTool(
    [CommandLine.arguments[0], "--testing-library", "swift-testing", "--filter", filter]
      + arguments,
    environment: environment)
}

/// ``runTool(_:environment:)`` on this thread: for XCTest's test methods, which run on the main
/// thread, outside the cooperative pool.
public func runToolBlocking(
  _ arguments: [String], environment: [String: String] = [:]
) throws -> (status: Int32, output: String) {
  let process = try startTool(arguments, environment: environment)
  return process.finish()
}

/// A command started by ``startTool(_:environment:)``.
public struct StartedTool {
  let process: Process
  let output: Pipe

  /// Waits for it to end; returns its exit status with its standard output and error, together.
  public func finish() -> (status: Int32, output: String) {
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }
}

/// Starts `arguments` as ``runTool(_:environment:)`` runs it, without waiting for it.
public func startTool(
  _ arguments: [String], environment: [String: String] = [:]
) throws -> StartedTool {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
  process.arguments = arguments
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let output = Pipe()
  process.standardOutput = output
  process.standardError = output
  try process.run()
  return StartedTool(process: process, output: output)
}

/// Runs `body` on a thread of its own and waits for it without holding a thread of the
/// cooperative pool: a test that waits for a child process must not take one of the few threads
/// every other test of a parallel run needs.
///
/// - Parameter body: The blocking work.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func offThePool<Result: Sendable>(
  _ body: @escaping @Sendable () throws -> Result
) async throws -> Result {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
  }
}
