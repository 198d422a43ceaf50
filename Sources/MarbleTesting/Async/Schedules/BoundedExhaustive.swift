/// Every schedule within two departures from FIFO, when there are few enough to run them all:
/// the one-departure schedules (each choice point of the FIFO run, each other pick), then, for each
/// of them, every second departure after its first, at the choice points of the run it made.
@_spi(Exploration) public struct BoundedExhaustive: Sendable {
  /// The schedules one departure from FIFO, from the FIFO run's choices.
  static func singles(after fifo: [ScheduleRun.Choice]) -> [[ScheduleToken.Departure]] {
    fifo.enumerated().flatMap { point, choice in
      (1..<max(1, choice.count)).map { chosen in
        [ScheduleToken.Departure(point: point, choice: .init(count: choice.count, chosen: chosen))]
      }
    }
  }

  /// The schedules that add a second departure to `first`, from the choices of the run `first`
  /// made.
  static func pairs(
    after first: ScheduleToken.Departure, made: [ScheduleRun.Choice]
  ) -> [[ScheduleToken.Departure]] {
    made.indices.filter { $0 > first.point }.flatMap { point in
      (1..<max(1, made[point].count)).map { chosen in
        [first, .init(point: point, choice: .init(count: made[point].count, chosen: chosen))]
      }
    }
  }

  /// A replay of `departures`: the strategy the enumeration runs each schedule with.
  static func strategy(_ departures: [ScheduleToken.Departure]) -> ReplayStrategy {
    var token = ScheduleToken(choices: [])
    token.departures = departures
    return ReplayStrategy(token)
  }
}
