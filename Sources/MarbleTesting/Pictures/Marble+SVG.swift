public import Signals

extension Marble {
  /// Recorded events drawn as a picture: one lane, as a standalone SVG document.
  ///
  /// ```swift
  /// let svg = Marble.svg(subscriber.events, title: "results")
  /// ```
  ///
  /// A value is drawn with its description (or, for a one-character `String`, the character). See
  /// ``MarblePicture`` for the drawing.
  ///
  /// - Parameters:
  ///   - events: The events.
  ///   - title: The lane's label.
  /// - Returns: The SVG text.
  public static func svg<Value, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>], title: String = "events"
  ) -> String {
    MarblePicture(lanes: [MarbleLane(title: title, role: .actual, events: events)]).svg()
  }

  /// A marble drawn as a picture, each value character standing for itself.
  ///
  /// ```swift
  /// let svg = try Marble.svg("-a-(bc)-#", title: "source")
  /// ```
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles (a `^` marks frame 0).
  ///   - title: The lane's label.
  /// - Returns: The SVG text.
  /// - Throws: ``MarbleSyntaxError`` on bad marbles.
  public static func svg(_ marbles: String, title: String = "marble") throws(MarbleSyntaxError)
    -> String
  {
    svg(try parse(marbles), title: title)
  }

  /// What was expected above what happened, with the first difference marked: the picture a
  /// failing marble assertion attaches.
  ///
  /// Values that equal a value of `values` are drawn with its key, so both lanes read like the
  /// marble; any other value with its description.
  ///
  /// - Parameters:
  ///   - expected: What should have happened.
  ///   - actual: What happened.
  ///   - values: What the marble's characters stand for.
  ///   - title: A title over the picture.
  /// - Returns: The SVG text.
  public static func svg<Value: Equatable, Failure: Error & Equatable>(
    expected: [Recorded<Event<Value, Failure>>], actual: [Recorded<Event<Value, Failure>>],
    values: [Character: Value] = [:], title: String? = nil
  ) -> String where Value: Sendable {
    let describe = describer(values)
    let difference = EventListDiff(expected: expected, actual: actual)
    return MarblePicture(
      lanes: [
        MarbleLane(title: "expected", role: .expected, events: expected, describe: describe),
        MarbleLane(title: "actual", role: .actual, events: actual, describe: describe),
      ], title: title, firstDifference: difference?.tick,
      notes: difference.map { ["At frame \($0.tick): \($0.summary(unit: "frame"))."] } ?? []
    ).svg()
  }

  /// Subscriptions drawn as brackets from subscription to disposal.
  ///
  /// - Parameters:
  ///   - subscriptions: The subscription log.
  ///   - title: The lane's label.
  /// - Returns: The SVG text.
  public static func svg(_ subscriptions: [Subscription], title: String = "subscriptions")
    -> String
  {
    MarblePicture(lanes: [MarbleLane(title: title, subscriptions: subscriptions)]).svg()
  }

  /// A signal of signals drawn as its outer lane and, under it, one lane per inner signal
  /// branching from the frame it was sent at; the inner signals' frames are counted from there in
  /// a ``RecordedSignal``, and drawn at the frames they happened.
  ///
  /// - Parameters:
  ///   - events: What a ``HigherOrderTestSubscriber`` recorded.
  ///   - title: The outer lane's label.
  /// - Returns: The SVG text.
  public static func svg<Value, Failure: Error>(
    _ events: [Recorded<Event<RecordedSignal<Value, Failure>, Failure>>], title: String = "outer"
  ) -> String {
    var lanes = [
      MarbleLane(
        title: title, role: .actual,
        items: events.enumerated().map { index, recorded in
          switch recorded.value {
          case .next: MarbleLane.Item(frame: recorded.time, mark: .value("\(index + 1)"))
          case .completed: MarbleLane.Item(frame: recorded.time, mark: .completed)
          case .error(let error): MarbleLane.Item(frame: recorded.time, mark: .error("\(error)"))
          }
        })
    ]
    for (index, recorded) in events.enumerated() {
      guard case .next(let inner) = recorded.value else { continue }
      let shifted = inner.events.map { Recorded(time: $0.time + recorded.time, value: $0.value) }
      lanes.append(
        MarbleLane(
          title: "\(index + 1)", role: .inner(branchingFrom: recorded.time), events: shifted))
    }
    return MarblePicture(lanes: lanes).svg()
  }

  /// Draws a value as the key of `values` that stands for it, or as its description.
  static func describer<Value: Equatable>(_ values: [Character: Value]) -> (Value) -> String {
    let keys = values.keys.sorted()
    return { value in
      keys.first { values[$0] == value }.map(String.init) ?? "\(value)"
    }
  }
}
