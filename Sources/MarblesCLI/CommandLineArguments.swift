/// What a `marbles` command line asks for, read without touching the file system.
///
/// ```
/// marbles Fixtures                        → run ["Fixtures"]
/// marbles run --filter replay a.marbles   → run ["a.marbles"], filter "replay"
/// marbles show --no-color a.marbles       → show ["a.marbles"], no colour
/// marbles --version                       → version
/// ```
///
/// Options may come before or after the paths; `--` ends them, so a path may start with `-`. The
/// first argument that is not an option is the command when it is `run` or `show` (to run a folder
/// named `run`, write `marbles run run` or `marbles ./run`). `--help` and `--version` win over
/// anything else on the line, including a mistake.
package struct CommandLineArguments: Sendable, Equatable {
  /// What to do.
  package enum Command: Sendable, Equatable {
    /// Run the scenarios in these files and folders, checking their expectations.
    case run(paths: [String])
    /// Print the resulting timelines of the scenarios in these files and folders.
    case show(paths: [String])
    /// Print the usage text.
    case help
    /// Print the version.
    case version
  }

  /// What to do.
  package var command: Command
  /// Only scenarios whose title or file path contains this text, ignoring case (`--filter`).
  package var filter: String?
  /// Whether `--no-color` was given.
  package var noColor: Bool
  /// Whether `--quiet` (`-q`) was given: print only failures, errors and the summary.
  package var quiet: Bool
  /// Where `--html FILE` asks for the run's HTML report.
  package var htmlPath: String?
  /// Where `show … --svg FILE` asks for the scenario's picture.
  package var svgPath: String?
  /// Whether `--record` was given: write the actual rows of failing scenarios into their files.
  package var record: Bool

  /// Creates parsed arguments (for comparing against in tests).
  package init(
    command: Command, filter: String? = nil, noColor: Bool = false, quiet: Bool = false,
    htmlPath: String? = nil, svgPath: String? = nil, record: Bool = false
  ) {
    self.command = command
    self.filter = filter
    self.noColor = noColor
    self.quiet = quiet
    self.htmlPath = htmlPath
    self.svgPath = svgPath
    self.record = record
  }

  /// The options `marbles` knows, for suggestions.
  static let knownOptions = [
    "--filter", "--no-color", "--quiet", "-q", "--html", "--svg", "--record", "--help", "-h",
    "--version",
  ]

  /// Reads a command line.
  ///
  /// - Parameter arguments: The arguments after the program name.
  /// - Returns: What they ask for.
  /// - Throws: ``UsageError`` for an unknown option (suggesting the nearest known one), an option
  ///   missing its value or given one it does not take, `--filter` given twice or empty, or no
  ///   paths.
  package static func parse(_ arguments: [String]) throws(UsageError) -> CommandLineArguments {
    var positionals: [String] = []
    var filter: String?
    var htmlPath: String?
    var svgPath: String?
    var noColor = false
    var quiet = false
    var record = false
    var wantsHelp = false
    var wantsVersion = false
    // The first mistake; reported only if neither --help nor --version is on the line.
    var mistake: UsageError?
    func note(_ error: UsageError) { if mistake == nil { mistake = error } }

    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      guard argument.count > 1, argument.hasPrefix("-") else {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        positionals += arguments[index...]
        break
      }
      let (name, inlineValue) = split(argument)
      switch name {
      case "--help", "-h", "--version", "--no-color", "--quiet", "-q", "--record":
        if inlineValue != nil {
          note(UsageError("the option '\(name)' takes no value"))
        } else if name == "--record" {
          record = true
        } else if name == "--version" {
          wantsVersion = true
        } else if name == "--no-color" {
          noColor = true
        } else if name == "--quiet" || name == "-q" {
          quiet = true
        } else {
          wantsHelp = true
        }
      case "--filter", "--html", "--svg":
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.endIndex {
          value = arguments[index]
          index += 1
        } else {
          let example =
            switch name {
            case "--html": "marbles --html report.html Fixtures"
            case "--svg": "marbles show Fixtures/seed004-publish.marbles --svg publish.svg"
            default: "marbles --filter replayLazily Fixtures"
            }
          note(
            UsageError(
              "the option '\(name)' needs a \(name == "--filter" ? "text" : "file")",
              hint: "Write, for example: \(example)"))
          continue
        }
        let current =
          switch name {
          case "--html": htmlPath
          case "--svg": svgPath
          default: filter
          }
        if value.isEmpty {
          note(
            UsageError(
              "the option '\(name)' needs a non-empty \(name == "--filter" ? "text" : "file")"))
        } else if current != nil {
          note(UsageError("the option '\(name)' may be given only once"))
        } else {
          switch name {
          case "--html": htmlPath = value
          case "--svg": svgPath = value
          default: filter = value
          }
        }
      default:
        let suggestion = nearest(to: name, among: knownOptions)
        note(
          UsageError(
            "unknown option '\(name)'",
            hint: suggestion.map { "Did you mean '\($0)'? \(UsageError.helpHint)" }
              ?? "To name a path that starts with '-', put '--' before it. \(UsageError.helpHint)"
          ))
      }
    }

    if wantsHelp { return CommandLineArguments(command: .help) }
    if wantsVersion { return CommandLineArguments(command: .version) }
    if let mistake { throw mistake }

    let command: Command
    switch positionals.first {
    case "show":
      let paths = Array(positionals.dropFirst())
      guard !paths.isEmpty else {
        throw UsageError(
          "'show' needs a fixture file",
          hint: "Write, for example: marbles show Fixtures/example.marbles")
      }
      command = .show(paths: paths)
    case "run":
      command = .run(paths: Array(positionals.dropFirst()))
    default:
      command = .run(paths: positionals)
    }
    if case .run(let paths) = command, paths.isEmpty {
      throw UsageError(
        "no fixture files or folders given",
        hint: "Write, for example: marbles Fixtures. \(UsageError.helpHint)")
    }
    if case .run = command, svgPath != nil {
      throw UsageError(
        "'--svg' draws one scenario, so it goes with 'show'",
        hint: "Write, for example: marbles show Fixtures/seed004-publish.marbles --svg publish.svg")
    }
    if case .show = command, htmlPath != nil {
      throw UsageError(
        "'--html' reports a run, so it goes with 'run'",
        hint: "Write, for example: marbles --html report.html Fixtures")
    }
    if case .show = command, record {
      throw UsageError(
        "'--record' writes what a run found, so it goes with 'run'",
        hint: "Write, for example: marbles --record Fixtures/example.marbles")
    }
    return CommandLineArguments(
      command: command, filter: filter, noColor: noColor, quiet: quiet, htmlPath: htmlPath,
      svgPath: svgPath, record: record)
  }

  /// Splits `--name=value` into its name and value; other arguments have no value.
  private static func split(_ argument: String) -> (name: String, value: String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  /// The candidate closest to `word` in edit distance, if it is close enough to be a likely typo
  /// (so `--filtr` suggests `--filter`, but `-x` suggests nothing).
  static func nearest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { (candidate: $0, distance: editDistance(word, $0)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
    let closeEnough =
      best.distance <= max(2, best.candidate.count / 3) && best.distance * 2 < word.count
    return closeEnough ? best.candidate : nil
  }

  /// The Levenshtein distance between two strings, in `Character`s.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let b = Array(b)
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
