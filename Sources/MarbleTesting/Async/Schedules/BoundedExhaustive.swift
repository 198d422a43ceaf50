/// Every schedule within a few departures from FIFO, level by level: the one-departure schedules
/// (each choice point of the FIFO run, each other pick), then, for each of them, every second
/// departure after its first, at the choice points of the run it made, and so on. The exploration
/// runs the first two levels when they fit in its count; the shrinking, every level below the
/// failing schedule's departures, within a budget of runs.
package struct BoundedExhaustive: Sendable {
  /// The schedules one departure more than `departures`: every other pick at every choice point
  /// after their last one (anywhere, for none), from the choices of the run `departures` made.
  package static func extensions(
    of departures: [ScheduleToken.Departure], made: [ScheduleRun.Choice]
  ) -> [[ScheduleToken.Departure]] {
    let after = departures.last.map { $0.point + 1 } ?? 0
    return made.indices.filter { $0 >= after }.flatMap { point in
      (1..<max(1, made[point].count)).map { chosen in
        departures + [.init(point: point, choice: .init(count: made[point].count, chosen: chosen))]
      }
    }
  }

  /// How many schedules ``extensions(of:made:)`` makes, made none of them: the other picks at
  /// every choice point after the last departure.
  package static func extensionCount(
    of departures: [ScheduleToken.Departure], made: [ScheduleRun.Choice]
  )
    -> Int
  {
    let after = departures.last.map { $0.point + 1 } ?? 0
    var count = 0
    for point in made.indices where point >= after { count += max(1, made[point].count) - 1 }
    return count
  }

  /// A replay of `departures`: the strategy the enumeration runs each schedule with.
  static func strategy(_ departures: [ScheduleToken.Departure]) -> ReplayStrategy {
    ReplayStrategy(departures: departures)
  }
}
