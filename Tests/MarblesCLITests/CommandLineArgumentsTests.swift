import MarblesCLI
import Testing

/// The argument parser as a value: no process, no file system.
@Suite struct CommandLineArgumentsTests {
  typealias Arguments = CommandLineArguments

  func parse(_ line: String) throws(UsageError) -> Arguments {
    try Arguments.parse(line.split(separator: " ").map(String.init))
  }

  func mistake(_ line: String) -> UsageError? {
    do {
      _ = try parse(line)
      return nil
    } catch {
      return error
    }
  }

  @Test func pathsAloneMeanRun() throws {
    #expect(try parse("Fixtures") == Arguments(command: .run(paths: ["Fixtures"])))
    #expect(try parse("a.marbles b") == Arguments(command: .run(paths: ["a.marbles", "b"])))
    #expect(try parse("run a b") == Arguments(command: .run(paths: ["a", "b"])))
  }

  @Test func showTakesPaths() throws {
    #expect(try parse("show a.marbles") == Arguments(command: .show(paths: ["a.marbles"])))
    // Only the first positional argument is a command word.
    #expect(try parse("a show") == Arguments(command: .run(paths: ["a", "show"])))
    #expect(try parse("run show") == Arguments(command: .run(paths: ["show"])))
  }

  @Test func optionsGoAnywhere() throws {
    let expected = Arguments(command: .run(paths: ["a", "b"]), filter: "replay", noColor: true)
    #expect(try parse("--no-color --filter replay a b") == expected)
    #expect(try parse("a --filter replay b --no-color") == expected)
    #expect(try parse("run a b --filter=replay --no-color") == expected)
  }

  @Test func aFilterValueMayLookLikeAnOption() throws {
    #expect(try parse("--filter --x a").filter == "--x")
    #expect(try parse("--filter=a=b a").filter == "a=b")
  }

  @Test func doubleDashEndsTheOptions() throws {
    #expect(
      try parse("--no-color -- --help -x")
        == Arguments(command: .run(paths: ["--help", "-x"]), noColor: true))
  }

  @Test func aLoneDashIsAPath() throws {
    #expect(try parse("-") == Arguments(command: .run(paths: ["-"])))
  }

  @Test func helpAndVersionWinOverEverythingElse() throws {
    #expect(try parse("--help") == Arguments(command: .help))
    #expect(try parse("Fixtures -h") == Arguments(command: .help))
    #expect(try parse("--bogus --help") == Arguments(command: .help))
    #expect(try parse("--version --help") == Arguments(command: .help))
    #expect(try parse("--version") == Arguments(command: .version))
    #expect(try parse("show --version") == Arguments(command: .version))
  }

  @Test func anUnknownOptionSuggestsTheNearestKnownOne() {
    #expect(
      mistake("--filtr x Fixtures")
        == UsageError(
          "unknown option '--filtr'",
          hint: "Did you mean '--filter'? Run 'marbles --help' for usage."))
    #expect(mistake("--nocolor Fixtures")?.hint.hasPrefix("Did you mean '--no-color'?") == true)
    #expect(mistake("--verison")?.hint.hasPrefix("Did you mean '--version'?") == true)
  }

  @Test func anUnknownOptionFarFromAnyKnownOneGetsAGeneralHint() {
    let error = mistake("-x Fixtures")
    #expect(error?.message == "unknown option '-x'")
    #expect(
      error?.hint
        == "To name a path that starts with '-', put '--' before it. Run 'marbles --help' for usage."
    )
  }

  @Test func optionValueMistakes() {
    #expect(mistake("Fixtures --filter")?.message == "the option '--filter' needs a text")
    #expect(
      mistake("--filter= Fixtures")?.message == "the option '--filter' needs a non-empty text")
    #expect(
      mistake("--filter a --filter b Fixtures")?.message
        == "the option '--filter' may be given only once")
    #expect(mistake("--no-color=yes Fixtures")?.message == "the option '--no-color' takes no value")
  }

  @Test func noPathsIsAMistake() {
    #expect(mistake("")?.message == "no fixture files or folders given")
    #expect(mistake("run --no-color")?.message == "no fixture files or folders given")
    #expect(mistake("show")?.message == "'show' needs a fixture file")
  }

  @Test func theFirstMistakeIsTheOneReported() {
    #expect(mistake("--a --filter")?.message == "unknown option '--a'")
  }

  @Test func aUsageErrorPrintsTheMessageThenTheHint() {
    #expect(
      UsageError("something is off").description
        == "marbles: something is off\nRun 'marbles --help' for usage.")
  }
}
