/// Runs the choices of a schedule again: a token's, by who was taken at each departure (its
/// identity), or an enumeration's, by place. A token's replay also says where a run stops
/// following it (``divergence(afterRunOf:)``): a different set of steps offered at a departure,
/// choices before a departure that are not the token's, or a run that ends before a departure;
/// and whether it matched the recorded run to its end (``matchesWholly(_:)``).
package struct ReplayStrategy: ScheduleStrategy {
  /// Where a run stopped matching the token it replays.
  package struct Divergence: Sendable, Equatable, CustomStringConvertible {
    /// The first choice point (from 0) known to differ; a range's last, when the token cannot
    /// tell which of several differs first.
    package var point: Int
    /// What differs there.
    package var reason: String

    package var description: String {
      "the schedule diverged at choice \(point + 1): \(reason)"
    }
  }

  private let departures: [Int: ScheduleRun.Choice]
  /// The token followed by identity; `nil` for an enumeration's departures, followed by place.
  private let token: ScheduleToken?
  private var choice = 0
  /// The first departure whose step was not offered, noted as the run goes.
  private var offered: Divergence?

  /// Follows `token`: at each of its departures, the step it names.
  package init(_ token: ScheduleToken) {
    self.token = token
    departures = Dictionary(uniqueKeysWithValues: token.departures.map { ($0.point, $0.choice) })
  }

  /// Follows `departures` by place: an enumeration's schedules, built from the choices of runs it
  /// made (``BoundedExhaustive``).
  package init(departures: [ScheduleToken.Departure]) {
    token = nil
    self.departures = Dictionary(uniqueKeysWithValues: departures.map { ($0.point, $0.choice) })
  }

  package mutating func choose(among candidates: [ScheduleCandidate]) -> Int {
    defer { choice += 1 }
    guard let recorded = departures[choice] else { return 0 }
    guard token != nil, let taken = recorded.taken else {
      guard recorded.count == candidates.count, recorded.chosen < candidates.count else {
        if offered == nil {
          offered = Divergence(point: choice, reason: "no longer a choice among \(recorded.count)")
        }
        return 0
      }
      return recorded.chosen
    }
    if recorded.count == candidates.count,
      let index = candidates.firstIndex(where: { $0.identity == taken })
    {
      return index
    }
    if offered == nil {
      offered = Divergence(
        point: choice,
        reason: "the token took \(taken) there, of \(recorded.count) steps that could go first; "
          + "this run offered \(candidates.map(\.identity.description).joined(separator: ", "))")
    }
    return 0
  }

  /// Where the run that made `choices` stopped matching the token's departures, if it did: a
  /// departure whose steps were not offered, choices before a departure that are not the token's,
  /// or a run that ended before a departure. (Always `nil` for an enumeration's departures but
  /// where a departure was no longer possible.)
  package func divergence(afterRunOf choices: [ScheduleRun.Choice]) -> Divergence? {
    guard let token else { return offered }
    var agreed = -1
    for departure in token.departures {
      guard departure.point < choices.count else {
        return Divergence(
          point: choices.count,
          reason: "the run ended after \(choices.count) choice points, before the token's "
            + "departure at choice \(departure.point + 1)")
      }
      if let offered, offered.point == departure.point { return offered }
      guard choices[departure.point].digest == departure.choice.digest else {
        return Self.unlike(after: agreed, by: departure.point)
      }
      agreed = departure.point
    }
    return nil
  }

  /// Whether the run that made `choices` matched the token's run to its end — not only through its
  /// last departure: the same number of choice points, with the same steps offered and taken. A
  /// fix usually changes what comes after the departures (the order that failed now ends
  /// otherwise); a replay that followed every departure still replays the schedule.
  package func matchesWholly(_ choices: [ScheduleRun.Choice]) -> Bool {
    guard let token else { return true }
    return choices.count == token.choicePoints && (choices.last?.digest ?? 0) == token.digest
  }

  /// The choices after `agreed` (the last point known to match), up to `last`, are not the
  /// token's.
  private static func unlike(after agreed: Int, by last: Int) -> Divergence {
    let first = agreed + 1
    return Divergence(
      point: last,
      reason: first == last
        ? "the steps offered there, or the one taken, are not the token's"
        : "the steps offered at one of choices \(first + 1) to \(last + 1), or the ones taken, "
          + "are not the token's")
  }
}
