import MarbleTesting

extension Fixtures {
  /// Reads a fixture file: scenarios that each start at a `title:` line, then optional `frame:`
  /// and `values:` lines and a required `pipeline:` line, then the table's rows.
  ///
  /// - Parameters:
  ///   - text: The file's text.
  ///   - path: The file's path, for messages.
  /// - Returns: The file's scenarios.
  /// - Throws: ``FixtureError`` at the line and column of the first mistake.
  package static func parse(_ text: String, path: String) throws(FixtureError) -> FixtureFile {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.hasSuffix("\r") ? $0.dropLast() : $0)
    }
    var scenarios: [Scenario] = []
    var current: ScenarioDraft?

    func fail(_ message: String, line: Int, column: Int) -> FixtureError {
      FixtureError(
        path: path,
        syntax: MarbleSyntaxError(
          message: message, line: line, column: column, sourceLine: lines[line - 1]))
    }
    func finish() throws(FixtureError) {
      guard let draft = current else { return }
      scenarios.append(try draft.scenario(path: path, lines: lines))
      current = nil
    }

    for (offset, line) in lines.enumerated() {
      let number = offset + 1
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      let indent = line.count - trimmed.count
      if trimmed.isEmpty || trimmed.hasPrefix("//") {
        current?.rowLines.append(number)
        continue
      }
      if let (key, value, valueColumn) = header(trimmed, indent: indent) {
        if key == "title" {
          try finish()
          guard !value.isEmpty else {
            throw fail("a scenario needs a title", line: number, column: valueColumn)
          }
          current = ScenarioDraft(title: value, line: number)
          continue
        }
        guard current != nil else {
          throw fail(
            "'\(key):' comes before any 'title:'; a scenario starts with its title", line: number,
            column: indent + 1)
        }
        guard current!.firstRow == nil else {
          throw fail(
            "'\(key):' comes after the table's rows; put the headers under the title", line: number,
            column: indent + 1)
        }
        switch key {
        case "frame":
          guard let duration = Self.duration(value) else {
            throw fail(
              "'\(value)' is not a frame length; write it like 100ms, 1s, 1.5s or 2m", line: number,
              column: valueColumn)
          }
          current!.frame = duration
        case "values":
          current!.values = try Self.values(value, line: number, column: valueColumn, fail: fail)
        case "pipeline":
          guard !value.isEmpty else {
            throw fail("the pipeline is empty", line: number, column: valueColumn)
          }
          current!.pipeline = (value, number, valueColumn)
        default:
          throw fail(
            "unknown header '\(key):'; a scenario has title:, frame:, values: and pipeline:",
            line: number, column: indent + 1)
        }
        continue
      }
      guard current != nil else {
        throw fail("expected 'title:' to start a scenario", line: number, column: indent + 1)
      }
      if current!.firstRow == nil { current!.firstRow = number }
      current!.rowLines.append(number)
    }
    try finish()
    guard !scenarios.isEmpty else {
      throw FixtureError(
        path: path,
        syntax: MarbleSyntaxError(
          message: "the file has no scenario (no 'title:' line)", line: 1, column: 1,
          sourceLine: lines.first ?? ""))
    }
    return FixtureFile(path: path, scenarios: scenarios)
  }

  /// `key: value` for the known header keys (and any `word:` that is not a table row), with the
  /// value's 1-based column.
  private static func header(_ trimmed: Substring, indent: Int) -> (String, String, Int)? {
    guard let colon = trimmed.firstIndex(of: ":") else { return nil }
    let key = trimmed[..<colon]
    guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0 == "-" }) else { return nil }
    let rest = trimmed[trimmed.index(after: colon)...]
    let value = rest.drop { $0 == " " || $0 == "\t" }
    let column = indent + trimmed.distance(from: trimmed.startIndex, to: value.startIndex) + 1
    return (String(key), String(value).replacing(/\s+$/, with: ""), column)
  }

  /// `100ms`, `1s`, `1.5s`, `2m`, `250us`.
  static func duration(_ text: String) -> Duration? {
    guard let unitStart = text.firstIndex(where: { $0.isLetter }) else { return nil }
    let number = text[..<unitStart]
    guard !number.isEmpty, let value = Double(number), value > 0 else { return nil }
    switch text[unitStart...] {
    case "us": return .nanoseconds(Int64((value * 1_000).rounded()))
    case "ms": return .nanoseconds(Int64((value * 1_000_000).rounded()))
    case "s": return .nanoseconds(Int64((value * 1_000_000_000).rounded()))
    case "m": return .nanoseconds(Int64((value * 60_000_000_000).rounded()))
    default: return nil
    }
  }

  /// `a = package 1, b = package 2`.
  private static func values(
    _ text: String, line: Int, column: Int,
    fail: (String, Int, Int) -> FixtureError
  ) throws(FixtureError) -> [Character: String] {
    var values: [Character: String] = [:]
    var offset = 0
    for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
      defer { offset += entry.count + 1 }
      let parts = entry.split(separator: "=", maxSplits: 1)
      let key = parts.first.map { $0.trimmingSpaces } ?? ""
      guard parts.count == 2, key.count == 1, let character = key.first,
        character.isLetter || character.isNumber
      else {
        throw fail(
          "write each value as 'k = text', with a one-character key, separated by commas", line,
          column + offset)
      }
      values[character] = String(parts[1].trimmingSpaces)
    }
    return values
  }
}

/// A scenario being read.
private struct ScenarioDraft {
  var title: String
  var line: Int
  var frame: Duration = .milliseconds(1)
  var values: [Character: String] = [:]
  var pipeline: (text: String, line: Int, column: Int)?
  var firstRow: Int?
  var rowLines: [Int] = []

  func scenario(path: String, lines: [String]) throws(FixtureError) -> Scenario {
    guard let pipeline else {
      throw FixtureError(
        path: path,
        syntax: MarbleSyntaxError(
          message: "the scenario '\(title)' has no 'pipeline:' line", line: line, column: 1,
          sourceLine: lines[line - 1]))
    }
    guard let firstRow else {
      throw FixtureError(
        path: path,
        syntax: MarbleSyntaxError(
          message: "the scenario '\(title)' has no table rows", line: line, column: 1,
          sourceLine: lines[line - 1]))
    }
    let text = rowLines.filter { $0 >= firstRow }.map { lines[$0 - 1] }
    // Blank and comment lines keep their places, so the table's line numbers are the file's.
    let table: MarbleTable
    do {
      table = try MarbleTable.parse(text.joined(separator: "\n"), firstLine: firstRow)
    } catch {
      throw FixtureError(path: path, syntax: error)
    }
    return Scenario(
      title: title, path: path, line: line, frame: frame, values: values,
      pipeline: pipeline.text, pipelineLine: pipeline.line, pipelineColumn: pipeline.column,
      pipelineSourceLine: lines[pipeline.line - 1], table: table)
  }
}

extension Substring {
  var trimmingSpaces: Substring {
    drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
      .reduce(into: Substring()) { $0.append($1) }
  }
}
