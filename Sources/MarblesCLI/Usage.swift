/// The text `marbles --help` prints.
enum Usage {
  /// The usage text, ending in a newline.
  static let text = """
    OVERVIEW: Run marble fixtures: expectation tables for reactive code, in virtual time.

    USAGE: marbles [run] [options] PATH...
           marbles show [options] PATH...

    COMMANDS:
      run (default)   Run every scenario in the files and folders named. A folder means every
                      *.marbles file inside it, recursively, in path order (hidden files and
                      folders are skipped). Prints each scenario's pipeline and table as it
                      ran, a PASS or FAIL line per scenario, and a last line
                      'N passed, M failed'.
      show            Print each scenario's resulting timelines without checking them.

    OPTIONS:
      --filter TEXT   Only the scenarios whose title or file path contains TEXT (ignoring case).
      -q, --quiet     Print only the failing scenarios, the errors and the summary.
      --html FILE     (run) Also write one self-contained HTML page with every scenario drawn.
      --svg FILE      (show) Write the first shown scenario's picture as an SVG file.
      --record        (run) Write what each failing scenario's subscribers received and its
                      sources saw into its 'gets' and 'subs' rows, in the fixture file; only
                      the marble part of a row changes. The run still fails (exit status 1).
      --no-color      Never colour the output. Colour is used only when standard output is a
                      terminal and the NO_COLOR environment variable is unset or empty.
      -h, --help      Show this help.
      --version       Show the version.
      --              Treat every later argument as a path.

    EXIT STATUS:
      0  every scenario that ran passed (also when --filter matched none)
      1  an expectation failed
      2  a usage error, an unreadable path, or a fixture with a syntax or pipeline error
         (every one reported on standard error as path:line:column, columns counted from
         1; the other scenarios and files still run)

    EXAMPLES:
      marbles Fixtures
      marbles --filter replayLazily Fixtures
      marbles --quiet Fixtures
      marbles --html report.html Fixtures
      marbles --record Fixtures/new-scenario.marbles
      marbles show Fixtures/seed004-six-requests.marbles --filter replayLazily --svg six.svg
      marbles show Fixtures/seed004-publish.marbles

    """
}
