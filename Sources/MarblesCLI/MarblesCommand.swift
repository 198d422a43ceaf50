import MarbleFixtures

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation  // Apple platforms, where FoundationEssentials is part of Foundation.
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `marbles` command: runs fixture files — expectation tables with a `pipeline:` line — and
/// prints each table as it ran.
///
/// ```
/// swift run marbles Fixtures
/// ```
///
/// See ``Usage/text`` for the options and ``ExitStatus`` for the exit codes.
@main
enum MarblesCommand {
  /// Reads the command line and the environment, does what they ask, and exits with its status.
  static func main() {
    CommandLineDriving.driveSignalsOnly()
    let status = perform(
      Array(CommandLine.arguments.dropFirst()),
      environment: ProcessInfo.processInfo.environment,
      outputIsTerminal: Console.outputIsTerminal,
      console: .standard)
    exit(status.rawValue)
  }

  /// Does what a command line asks.
  ///
  /// - Parameters:
  ///   - arguments: The arguments after the program name.
  ///   - environment: The environment variables (for `NO_COLOR`).
  ///   - outputIsTerminal: Whether standard output is a terminal (for colour).
  ///   - console: Where to write.
  /// - Returns: The exit status.
  static func perform(
    _ arguments: [String], environment: [String: String], outputIsTerminal: Bool,
    console: Console
  ) -> ExitStatus {
    let parsed: CommandLineArguments
    do throws(UsageError) {
      parsed = try CommandLineArguments.parse(arguments)
    } catch {
      console.error(error.description + "\n")
      return .error
    }
    let runner = FixtureRunner(
      filter: parsed.filter, quiet: parsed.quiet, htmlPath: parsed.htmlPath,
      svgPath: parsed.svgPath, record: parsed.record,
      style: .choose(
        noColorOption: parsed.noColor, environment: environment,
        outputIsTerminal: outputIsTerminal),
      console: console)
    switch parsed.command {
    case .help:
      console.output(Usage.text)
      return .success
    case .version:
      console.output("marbles \(Fixtures.version)\n")
      return .success
    case .run(let paths):
      return runner.run(paths).status
    case .show(let paths):
      return runner.show(paths).status
    }
  }
}
