public import Signals

/// A list of recorded events drawn as a marble, with what its characters stand for.
///
/// Made by `Marble.diagram(_:tick:)`. The diagram prints
/// as its ``marbles``; ``legend`` says which values the letters stand for, and ``isExact`` whether
/// parsing the marbles gives back exactly the events it was drawn from:
///
/// ```swift
/// let diagram = Marble.diagram([.next(2, User(id: 1)), .completed(4)] as [Recorded<E>])
/// diagram.marbles   // "--a-|"
/// diagram.legend    // ["a = User(id: 1)"]
/// try diagram.parse() == events   // true
/// ```
public struct MarbleDiagram<Value, Failure: Error>: CustomStringConvertible {
  /// The marble, one character per frame.
  public var marbles: String
  /// The value of every value character in ``marbles`` — a single-character `String` value maps
  /// to its own character — so `Marble.parse(marbles, values: values, error: …)` gives the events
  /// back.
  public var values: [Character: Value]
  /// The failure the `#` stands for, if the events include one.
  public var error: Failure?
  /// One line per letter that stands for another value, in order of first appearance, such as
  /// `a = User(id: 1)` or `b = "hello"`; empty when every value is its own character.
  public var legend: [String]
  /// Whether parsing ``marbles`` gives back exactly the events the diagram was drawn from. It is
  /// `false` only for a list no signal can send: times that go backwards, or events after a
  /// terminal event. ``notes`` says what was drawn instead.
  public var isExact: Bool
  /// Why the diagram is not exact, one sentence per event that could not be drawn where it
  /// happened; empty when ``isExact``.
  public var notes: [String]
  /// The length of one frame, which the time progressions in ``marbles`` are measured in.
  public var tick: Duration

  /// Creates a diagram.
  ///
  /// - Parameters:
  ///   - marbles: The marble.
  ///   - values: The value of each value character.
  ///   - error: The failure `#` stands for.
  ///   - legend: What the letters stand for.
  ///   - isExact: Whether the marble parses back to the events it shows.
  ///   - notes: Why it is not exact.
  ///   - tick: The length of one frame, for time progressions.
  public init(
    marbles: String, values: [Character: Value], error: Failure?, legend: [String],
    isExact: Bool = true, notes: [String] = [], tick: Duration = .milliseconds(1)
  ) {
    self.marbles = marbles
    self.values = values
    self.error = error
    self.legend = legend
    self.isExact = isExact
    self.notes = notes
    self.tick = tick
  }

  /// The marble.
  public var description: String { marbles }

  /// Parses ``marbles`` back with ``values``, ``error`` and ``tick``.
  ///
  /// - Returns: The events; the ones the diagram was drawn from when ``isExact``.
  /// - Throws: ``MarbleSyntaxError`` if the diagram is not exact because it shows events after a
  ///   terminal event, or if the diagram was edited into bad marbles.
  public func parse() throws(MarbleSyntaxError) -> [Recorded<Event<Value, Failure>>] {
    // The scanner checks that every value character is a key.
    try Marble.events(
      of: marbles, allowsSubscriptionPoint: true, tick: tick, position: .start, checksKeys: true,
      hasKey: { values[$0] != nil }, value: { values[$0[$1]]! },
      error: { index throws(MarbleSyntaxError) in
        guard let error else {
          throw MarbleSyntaxError(
            message: "'#' but the diagram has no error to stand for it", line: 1,
            column: index + 1, sourceLine: marbles)
        }
        return error
      })
  }
}

extension MarbleDiagram: Sendable where Value: Sendable {}
extension MarbleDiagram: Equatable where Value: Equatable, Failure: Equatable {}
