import MarbleTesting
import Marbles
import Signals
import Testing

/// swift-async-algorithms' `validate { input…; sequence; output }` on a Marbles `TestScheduler`,
/// its diagrams read by the rules in `Integrations/README.md`.
///
/// The inputs become hot test signals played from tick 0 and replayed to a late first pull, as
/// their `Input` delivers each element no earlier than its step and no later than the pull after
/// it. The sequence under test is iterated by a driven task that pulls exactly when their
/// harness's consumer does: at step 0, then at the step of each expected event (a `,` moves that
/// pull one step later), then once more to check that nothing follows. A `;` cancels the consumer
/// at its step. What the consumer gets is recorded and asserted with `assertMarbles`.
///
/// - Parameters:
///   - inputs: The input diagrams, in their dialect (`$0.inputs[0]`, `$0.inputs[1]`, …).
///   - output: The expected diagram, in their dialect.
///   - fileID: The caller's file ID (filled in for you).
///   - filePath: The caller's file path (filled in for you).
///   - line: The caller's line (filled in for you).
///   - column: The caller's column (filled in for you).
///   - build: The sequence under test, from the inputs and the clock.
func validate<Output: AsyncSequence & Sendable>(
  _ inputs: String..., output: String,
  fileID: String = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column,
  _ build: (ValidationInputs) -> Output
) throws where Output.Element == String {
  let sourceLocation = SourceLocation(
    fileID: fileID, filePath: "\(filePath)", line: Int(line), column: Int(column))
  let scheduler = TestScheduler()
  var signals: [SignalValues<String, TestError>] = []
  for input in inputs {
    let diagram = try ValidationDiagram(input).asInput()
    let hot = try scheduler.hot(diagram.marble, values: diagram.values)
    signals.append(hot.replay().values)
  }
  let sequence = build(ValidationInputs(inputs: signals, clock: scheduler.clock))
  let expected = try ValidationDiagram(output)

  let recorder = TestSubscriber<String, any Error>(scheduler)
  let clock = scheduler.clock
  let tick = scheduler.tick
  let pullTicks = expected.pullTicks
  let consumer = scheduler.task(name: "the consumer of \(output)") {
    var iterator = sequence.makeAsyncIterator()
    do {
      for pull in pullTicks {
        let instant = TestClock.Instant(offset: tick * pull)
        if instant != clock.now { try await clock.sleep(until: instant) }
        guard let element = try await iterator.next() else { break }
        recorder.sendNext(element)
      }
      if let pastEnd = try await iterator.next() {
        Issue.record(
          "got \(pastEnd) at tick \(scheduler.now), after the iteration the diagram draws",
          sourceLocation: sourceLocation)
      }
      recorder.sendCompleted()
    } catch {
      recorder.sendError(error)
    }
  }
  for cancel in expected.cancelTicks {
    scheduler.schedule(at: cancel) { consumer.cancel() }
  }
  let result = scheduler.run()
  if let failure = result.failure { Issue.record("\(failure)", sourceLocation: sourceLocation) }
  assertMarbles(
    recorder, expected.marble, values: expected.values, fileID: fileID, filePath: filePath,
    line: line, column: column)
}

/// What a port's sequence is built from: `$0.inputs` and `$0.clock` of their `validate`.
struct ValidationInputs: Sendable {
  /// The input sequences, in the order their diagrams are written.
  let inputs: [SignalValues<String, TestError>]
  /// Their `$0.clock`: the scheduler's clock, one step a tick.
  let clock: TestClock
}

extension Duration {
  /// Their clock's `.steps(n)`: `n` ticks of a default `TestScheduler` (1 ms each).
  static func steps(_ count: Int) -> Duration { .milliseconds(count) }
}

/// A diagram of swift-async-algorithms' validation dialect, translated to a Marbles marble.
struct ValidationDiagram {
  /// The marble: step `n` is frame `n`, so it starts with one `-` for step 0.
  var marble = "-"
  /// What the characters of `'long'` values stand for.
  var values: [Character: String] = Marble.characterValues
  /// When the consumer pulls: their harness's `activeTicks`.
  var pullTicks = [0]
  /// The steps of `;`: the consumer is cancelled there.
  var cancelTicks: [Int] = []

  struct Mistake: Error, CustomStringConvertible {
    var description: String
  }

  /// Translates `text` as their `Event.parse` and `ASCIITheme` read it.
  init(_ text: String) throws {
    var step = 0
    var group: String?
    var long: String?
    var spareKeys = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ").makeIterator()
    /// Places one event (or a `;`/`,` instruction) at the next step, or in the open group.
    func place(_ symbol: Character?, instruction: Character? = nil) {
      if group == nil { step += 1 }
      switch instruction {
      case ",": pullTicks[pullTicks.count - 1] = step + 1
      case ";":
        cancelTicks.append(step)
        pullTicks.append(step)
      default: pullTicks.append(step)
      }
      if group != nil {
        if let symbol { group!.append(symbol) }
      } else {
        marble.append(symbol ?? "-")
      }
    }
    for character in text {
      if long != nil, character != "'" {
        long!.append(character)
        continue
      }
      switch character {
      case "-":
        guard group == nil else { throw Mistake(description: "'-' inside a group in \(text)") }
        step += 1
        marble.append("-")
      case "^": place("#")
      case "|": place("|")
      case ";": place(nil, instruction: ";")
      case ",": place(nil, instruction: ",")
      case "'":
        if let value = long {
          guard let key = spareKeys.next() else { throw Mistake(description: "too many values") }
          values[key] = value
          long = nil
          place(key)
        } else {
          long = ""
        }
      case "[":
        guard group == nil else { throw Mistake(description: "nested group in \(text)") }
        step += 1
        group = ""
      case "]":
        guard let members = group else { throw Mistake(description: "unbalanced ']' in \(text)") }
        marble += members.isEmpty ? "-" : "[\(members)]"
        group = nil
      case " ":
        marble.append(" ")
      default:
        place(character)
      }
    }
    guard group == nil, long == nil else { throw Mistake(description: "unclosed group in \(text)") }
  }

  /// The diagram as an input. Their `Input` hands out its events in order, one per pull, and
  /// `nil` once they are used up; so an input ends with its first `^` or `|` (the operator under
  /// test never pulls again), and one that draws no end ends with its last event.
  func asInput() throws -> ValidationDiagram {
    var input = self
    let scanned = Array(marble)
    var index = 0
    var lastEvent: Int?
    var depth = 0
    while index < scanned.count {
      let character = scanned[index]
      if character == "[" { depth += 1 }
      if character == "]" { depth -= 1 }
      if character == "#" || character == "|" {
        // Cut after the terminal, closing its group if it is in one.
        var end = index + 1
        if depth > 0, let close = scanned[end...].firstIndex(of: "]") {
          end = close + 1
          input.marble = String(scanned[..<index]) + String(character) + "]"
        } else {
          input.marble = String(scanned[..<end])
        }
        _ = end
        return input
      }
      if character != "-", character != " ", character != "[", character != "]" {
        lastEvent = depth > 0 ? scanned[..<index].lastIndex(of: "[") : index
      }
      index += 1
    }
    guard let lastEvent else {
      input.marble += "|"
      return input
    }
    // No end: the last event's frame ends it.
    if scanned[lastEvent] == "[" {
      let close = scanned[lastEvent...].firstIndex(of: "]")!
      input.marble = String(scanned[..<close]) + "|" + String(scanned[close...])
    } else {
      input.marble =
        String(scanned[..<lastEvent]) + "[\(scanned[lastEvent])|]"
        + String(scanned[(lastEvent + 1)...])
    }
    return input
  }
}
