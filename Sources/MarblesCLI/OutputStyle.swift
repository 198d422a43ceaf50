/// How `marbles` decorates its output: green `PASS`, red `FAIL` and `ERROR`, dim headers — or
/// nothing at all.
///
/// Colour is on only when standard output is a terminal, the `NO_COLOR` environment variable is
/// unset or empty (<https://no-color.org>), and `--no-color` was not given. Piped output, and so
/// anything a CI job or a test reads, is always plain text.
package struct OutputStyle: Sendable, Equatable {
  /// Whether to write ANSI colour escapes.
  package var colored: Bool

  /// Creates a style.
  ///
  /// - Parameter colored: Whether to write ANSI colour escapes.
  package init(colored: Bool) {
    self.colored = colored
  }

  /// Plain text, no escapes.
  package static let plain = OutputStyle(colored: false)

  /// Decides whether to colour, from everything that has a say.
  ///
  /// - Parameters:
  ///   - noColorOption: Whether `--no-color` was given.
  ///   - environment: The environment variables (only `NO_COLOR` is read).
  ///   - outputIsTerminal: Whether standard output is a terminal.
  /// - Returns: A coloured style only if the output is a terminal, `NO_COLOR` is unset or empty,
  ///   and `--no-color` was not given.
  package static func choose(
    noColorOption: Bool, environment: [String: String], outputIsTerminal: Bool
  ) -> OutputStyle {
    let noColorVariable = !(environment["NO_COLOR"] ?? "").isEmpty
    return OutputStyle(colored: outputIsTerminal && !noColorVariable && !noColorOption)
  }

  /// `text` in green: a passing verdict.
  package func pass(_ text: String) -> String { paint(text, "32") }

  /// `text` in red: a failing verdict or an error.
  package func fail(_ text: String) -> String { paint(text, "31") }

  /// `text` dimmed: a header that locates what follows.
  package func dim(_ text: String) -> String { paint(text, "2") }

  /// Wraps `text` in the SGR escape `code` and a reset, when colouring.
  private func paint(_ text: String, _ code: String) -> String {
    colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}
