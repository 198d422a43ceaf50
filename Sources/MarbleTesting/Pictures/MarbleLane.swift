package import Signals

/// One row of a marble picture: a timeline with the events (or subscriptions) on it.
///
/// Lanes are what ``MarblePicture`` draws; build them from recorded events with
/// ``init(title:role:events:describe:)`` or from subscription logs with
/// ``init(title:role:subscriptions:)``, or let `Marble.svg(…)` and `TableReport.svg()` build them.
package struct MarbleLane: Sendable, Equatable {
  /// What a lane shows, which sets how it is drawn.
  package enum Role: Sendable, Equatable {
    /// A source's events.
    case source
    /// What a subscriber must receive (drawn with a dashed timeline).
    case expected
    /// What a subscriber received (solid).
    case actual
    /// A source's subscriptions, as brackets from subscription to disposal.
    case subscriptions
    /// An inner signal of a signal of signals, branching from its parent lane at `frame`.
    case inner(branchingFrom: Int)
  }

  /// One mark on a lane.
  package enum Mark: Sendable, Equatable {
    /// A value, with the text it is drawn with (its marble character, or its description).
    case value(String)
    /// Completion: a bar.
    case completed
    /// A failure, with its description: a cross.
    case error(String)
  }

  /// A mark at a frame.
  package struct Item: Sendable, Equatable {
    /// The frame (tick) it happens at.
    package var frame: Int
    /// What happens.
    package var mark: Mark

    /// Creates an event.
    ///
    /// - Parameters:
    ///   - frame: The frame.
    ///   - mark: What happens.
    package init(frame: Int, mark: Mark) {
      self.frame = frame
      self.mark = mark
    }
  }

  /// The label at the lane's left.
  package var title: String
  /// What the lane shows.
  package var role: Role
  /// Its marks, in order.
  package var items: [Item]
  /// Its subscriptions, for a ``Role/subscriptions`` lane.
  package var subscriptions: [Subscription]

  /// Creates a lane.
  ///
  /// - Parameters:
  ///   - title: The label at the lane's left.
  ///   - role: What the lane shows.
  ///   - items: Its marks, in order.
  ///   - subscriptions: Its subscriptions, for a subscriptions lane.
  package init(title: String, role: Role, items: [Item] = [], subscriptions: [Subscription] = []) {
    self.title = title
    self.role = role
    self.items = items
    self.subscriptions = subscriptions
  }

  /// A lane of recorded events.
  ///
  /// - Parameters:
  ///   - title: The label at the lane's left.
  ///   - role: What the lane shows.
  ///   - events: The events.
  ///   - describe: The text a value is drawn with; by default its description.
  package init<Value, Failure: Error>(
    title: String, role: Role, events: [Recorded<Event<Value, Failure>>],
    describe: (Value) -> String = { "\($0)" }
  ) {
    self.init(
      title: title, role: role,
      items: events.map { recorded in
        let mark: Mark =
          switch recorded.value {
          case .next(let value): .value(describe(value))
          case .completed: .completed
          case .error(let error): .error("\(error)")
          }
        return Item(frame: recorded.time, mark: mark)
      })
  }

  /// A lane of subscriptions.
  ///
  /// - Parameters:
  ///   - title: The label at the lane's left.
  ///   - role: ``Role/subscriptions``, or another role to draw them differently.
  ///   - subscriptions: The subscriptions.
  package init(title: String, role: Role = .subscriptions, subscriptions: [Subscription]) {
    self.init(title: title, role: role, items: [], subscriptions: subscriptions)
  }
}
