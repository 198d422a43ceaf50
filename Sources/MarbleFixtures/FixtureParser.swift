import MarbleTesting

extension Fixtures {
  /// Reads a fixture file: scenarios that each start at a `title:` line, then optional `frame:`,
  /// `values:` and `failure:` lines and a required `pipeline:` line, then the table's rows.
  ///
  /// Every mistake in the file is found, not only the first: a scenario with a mistake — in its
  /// headers, its rows, a marble or its pipeline — is left out of ``FixtureFile/scenarios`` and its
  /// mistakes are listed in ``FixtureFile/errors``, in file order; the other scenarios stay
  /// runnable.
  ///
  /// - Parameters:
  ///   - text: The file's text.
  ///   - path: The file's path, for messages.
  /// - Returns: The file's runnable scenarios and every mistake found.
  package static func read(_ text: String, path: String) -> FixtureFile {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      String($0.hasSuffix("\r") ? $0.dropLast() : $0)
    }
    var scenarios: [Scenario] = []
    var errors: [FixtureError] = []
    var current: ScenarioDraft?

    func fail(_ message: String, line: Int, column: Int) -> FixtureError {
      FixtureError(
        path: path,
        syntax: MarbleSyntaxError(
          message: message, line: line, column: column, sourceLine: lines[line - 1]))
    }
    /// Records a mistake; one inside a scenario keeps that scenario from running.
    func record(_ error: FixtureError) {
      errors.append(error)
      current?.isBroken = true
    }
    func finish() {
      guard let draft = current else { return }
      current = nil
      let (scenario, problems) = draft.scenario(path: path, lines: lines)
      errors += problems
      if let scenario, !draft.isBroken { scenarios.append(scenario) }
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
          finish()
          current = ScenarioDraft(title: value, line: number)
          if value.isEmpty {
            record(fail("a scenario needs a title", line: number, column: valueColumn))
          }
          continue
        }
        guard current != nil else {
          record(
            fail(
              "'\(key):' comes before any 'title:'; a scenario starts with its title",
              line: number, column: indent + 1))
          continue
        }
        guard current!.firstRow == nil else {
          record(
            fail(
              "'\(key):' comes after the table's rows; put the headers under the title",
              line: number, column: indent + 1))
          continue
        }
        switch key {
        case "frame":
          guard let duration = Self.duration(value) else {
            record(
              fail(
                "'\(value)' is not a frame length; write it like 100ms, 1s, 1.5s or 2m",
                line: number, column: valueColumn))
            continue
          }
          current!.frame = duration
        case "values":
          do throws(FixtureError) {
            current!.values = try Self.values(
              value, line: number, column: valueColumn, fail: fail)
          } catch {
            record(error)
          }
        case "failure":
          switch value {
          case "never": current!.cannotFail = true
          case "TestError": current!.cannotFail = false
          default:
            record(
              fail(
                "'\(value)' is not a failure; a scenario's failure: is never or TestError",
                line: number, column: valueColumn))
          }
        case "pipeline":
          guard !value.isEmpty else {
            record(fail("the pipeline is empty", line: number, column: valueColumn))
            continue
          }
          current!.pipeline = (value, number, valueColumn)
        default:
          record(
            fail(
              "unknown header '\(key):'; a scenario has title:, frame:, values:, failure: and "
                + "pipeline:", line: number, column: indent + 1))
        }
        continue
      }
      guard current != nil else {
        record(fail("expected 'title:' to start a scenario", line: number, column: indent + 1))
        continue
      }
      if current!.firstRow == nil { current!.firstRow = number }
      current!.rowLines.append(number)
    }
    finish()
    if scenarios.isEmpty && errors.isEmpty {
      errors.append(
        FixtureError(
          path: path,
          syntax: MarbleSyntaxError(
            message: "the file has no scenario (no 'title:' line)", line: 1, column: 1,
            sourceLine: lines.first ?? "")))
    }
    return FixtureFile(path: path, scenarios: scenarios, errors: errors)
  }

  /// Reads a fixture file that must have no mistake (see ``read(_:path:)``).
  ///
  /// - Parameters:
  ///   - text: The file's text.
  ///   - path: The file's path, for messages.
  /// - Returns: The file's scenarios.
  /// - Throws: ``FixtureError`` at the line and column of the first mistake.
  package static func parse(_ text: String, path: String) throws(FixtureError) -> FixtureFile {
    let file = read(text, path: path)
    if let first = file.errors.first { throw first }
    return file
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

  /// `a = package 1, b = package 2, c = "a, b", d = "say \"hi\""`: a value in double quotes may
  /// hold commas, spaces at its ends and `\"` or `\\` escapes.
  ///
  /// A mistake's column is that of the entry's first character (1-based, like every column in
  /// these messages).
  static func values(
    _ text: String, line: Int, column: Int,
    fail: (String, Int, Int) -> FixtureError
  ) throws(FixtureError) -> [Character: String] {
    let characters = Array(text)
    var values: [Character: String] = [:]
    var index = 0
    func skipSpaces() {
      while index < characters.count, characters[index].isWhitespace { index += 1 }
    }
    let shape = "write each value as 'k = text' with a one-character key, separated by commas"
    while index <= characters.count {
      skipSpaces()
      let entryStart = index
      // The key.
      guard index < characters.count, characters[index].isLetter || characters[index].isNumber
      else { throw fail(shape, line, column + entryStart) }
      let key = characters[index]
      index += 1
      skipSpaces()
      guard index < characters.count, characters[index] == "=" else {
        throw fail(shape, line, column + entryStart)
      }
      index += 1
      skipSpaces()
      // The text: quoted, or up to the next comma.
      var value = ""
      if index < characters.count, characters[index] == "\"" {
        let quote = index
        index += 1
        var closed = false
        while index < characters.count {
          let character = characters[index]
          index += 1
          if character == "\\", index < characters.count {
            value.append(characters[index])
            index += 1
          } else if character == "\"" {
            closed = true
            break
          } else {
            value.append(character)
          }
        }
        guard closed else { throw fail("this quoted value is never closed", line, column + quote) }
        skipSpaces()
        guard index == characters.count || characters[index] == "," else {
          throw fail("expected ',' after the quoted value", line, column + index)
        }
      } else {
        let start = index
        while index < characters.count, characters[index] != "," { index += 1 }
        value = String(characters[start..<index]).replacing(/\s+$/, with: "")
      }
      if values[key] != nil {
        throw fail("'\(key)' is given a value twice", line, column + entryStart)
      }
      values[key] = value
      index += 1  // past the comma, or past the end
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
  var cannotFail = false
  var pipeline: (text: String, line: Int, column: Int)?
  var firstRow: Int?
  var rowLines: [Int] = []
  /// Whether a mistake was found in its headers or around them.
  var isBroken = false

  /// The scenario, unless it has a mistake, and every mistake in its rows, marbles and pipeline.
  func scenario(path: String, lines: [String]) -> (Scenario?, [FixtureError]) {
    func fail(_ message: String) -> FixtureError {
      FixtureError(
        path: path,
        syntax: MarbleSyntaxError(
          message: message, line: line, column: 1, sourceLine: lines[line - 1]))
    }
    guard let pipeline else {
      return (nil, [fail("the scenario '\(title)' has no 'pipeline:' line")])
    }
    guard let firstRow else { return (nil, [fail("the scenario '\(title)' has no table rows")]) }
    let text = rowLines.filter { $0 >= firstRow }.map { lines[$0 - 1] }
    // Blank and comment lines keep their places, so the table's line numbers are the file's.
    let (table, rowErrors) = MarbleTable.read(text.joined(separator: "\n"), firstLine: firstRow)
    var errors = rowErrors.map { FixtureError(path: path, syntax: $0) }
    let scenario = table.map { table in
      Scenario(
        title: title, path: path, line: line, frame: frame, values: values,
        cannotFail: cannotFail, pipeline: pipeline.text, pipelineLine: pipeline.line,
        pipelineColumn: pipeline.column, pipelineSourceLine: lines[pipeline.line - 1],
        table: table)
    }
    if let scenario { errors += Fixtures.mistakes(in: scenario) }
    errors.sort { ($0.syntax.line, $0.syntax.column) < ($1.syntax.line, $1.syntax.column) }
    return (errors.isEmpty ? scenario : nil, errors)
  }
}

extension Substring {
  var trimmingSpaces: Substring {
    drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
      .reduce(into: Substring()) { $0.append($1) }
  }
}
