@_spi(Internals) import Signals
import Synchronization

/// One run of a test under one schedule: the strategy that makes its choices, and the choices it
/// made. A scheduler made while one is current (``current``, a task local the exploration sets
/// around the test's body) asks it at each choice point of its driver.
///
/// What a schedule may reorder — and what keeps its order — is decided where the choice is made,
/// in ``TaskDriver``: jobs of different tasks bound for the generic executor, and the first job
/// bound for the main actor against them; jobs bound for the main actor keep their order among
/// themselves (a serial executor's queue), and a choice is counted only where two or more jobs
/// may go first.
package final class ScheduleRun: Sendable {
  /// One choice: how many jobs could go first, and which one did (0 is FIFO's).
  package struct Choice: Sendable, Equatable {
    package var count: Int
    package var chosen: Int

    package init(count: Int, chosen: Int) {
      self.count = count
      self.chosen = chosen
    }
  }

  /// One job that ran: its task (`nil` for an actor's job), the tick, and whether it went first
  /// against FIFO's pick.
  package struct Step: Sendable, Equatable {
    package var task: UInt64?
    package var tick: Int
    package var isDeparture: Bool
  }

  private struct State {
    var strategy: any ScheduleStrategy
    var choices: [Choice] = []
    var steps: [Step] = []
    /// How many steps ran past ``ScheduleRun/stepLogLimit``, which the log leaves out.
    var stepsLeftOut = 0
    var pendingDeparture = false
    var names: [UInt64: String] = [:]
    var uncontrolled: [String] = []
  }

  private let state: Locked<State>

  /// The run the schedulers made here belong to, if any.
  @TaskLocal package static var current: ScheduleRun?

  /// The run a scheduler made here follows: the current one, else — when the environment
  /// variable `MARBLES_EXPLORE_EVERY_SCHEDULER` holds a seed, to see which tests of a suite
  /// depend on the FIFO order of same-tick work — a random walk of its own from that seed.
  static var forNewScheduler: ScheduleRun? {
    if let current { return current }
    guard let seed = everySchedulerSeed else { return nil }
    return ScheduleRun(
      RandomWalkStrategy(
        seed: seed &+ UInt64(bitPattern: Int64(nextScheduler.add(1, ordering: .relaxed).newValue))))
  }

  private static let everySchedulerSeed: UInt64? = Platform.environment(
    "MARBLES_EXPLORE_EVERY_SCHEDULER"
  ).flatMap { UInt64($0) }
  private static let nextScheduler = Atomic<Int>(0)

  package init(_ strategy: any ScheduleStrategy) {
    state = Locked(State(strategy: strategy))
  }

  /// Asks the strategy to pick among `candidates` (two or more), and notes the choice.
  func choose(among candidates: [ScheduleCandidate]) -> Int {
    state.withLock { state in
      let chosen = min(max(0, state.strategy.choose(among: candidates)), candidates.count - 1)
      state.choices.append(Choice(count: candidates.count, chosen: chosen))
      state.pendingDeparture = chosen != 0
      return chosen
    }
  }

  /// How many steps a run's log keeps: the report draws them as lanes, and a run of more is long
  /// past drawing (an explored run may go on to its step limit, ten million).
  package static let stepLogLimit = 10_000

  /// Notes the job that runs next (after the choice that picked it, if there was one): in the
  /// log while it has room, else counted.
  func noteStep(task: UInt64?, tick: Int) {
    state.withLock { state in
      if state.steps.count < Self.stepLogLimit {
        state.steps.append(Step(task: task, tick: tick, isDeparture: state.pendingDeparture))
      } else {
        state.stepsLeftOut += 1
      }
      state.pendingDeparture = false
    }
  }

  /// How many steps ran past the log's limit, left out of ``steps``.
  package var stepsLeftOut: Int {
    state.withLock { $0.stepsLeftOut }
  }

  /// Names task `id` in the report's lanes (`scheduler.task(name:)`).
  func name(task id: UInt64, _ name: String) {
    state.withLock { $0.names[id] = name }
  }

  /// Notes what driven work did outside virtual time during the run: its order there was not
  /// the schedule's.
  func noteUncontrolled(_ note: String) {
    state.withLock { state in
      if !state.uncontrolled.contains(note) { state.uncontrolled.append(note) }
    }
  }

  /// What driven work did outside virtual time during the run, which no schedule orders.
  package var uncontrolled: [String] {
    state.withLock { $0.uncontrolled }
  }

  /// The names of the tasks that have one.
  package var names: [UInt64: String] {
    state.withLock { $0.names }
  }

  /// The jobs that ran, in order.
  package var steps: [Step] {
    state.withLock { $0.steps }
  }

  /// The choices made so far.
  package var choices: [Choice] {
    state.withLock { $0.choices }
  }

  /// Where a replay's recorded choices stopped matching the run, if they did.
  package var divergence: Int? {
    state.withLock { ($0.strategy as? ReplayStrategy)?.divergence }
  }

  /// The choices as a token a replay runs again.
  package var token: ScheduleToken {
    ScheduleToken(choices: choices)
  }
}

/// The choices of one schedule, as a text a test can hold: `mrb1-` then the number of choice
/// points and each departure from FIFO as `point.chosen.count`, in base 36.
package struct ScheduleToken: Sendable, Equatable, CustomStringConvertible {
  /// A choice that was not FIFO's, at choice point `point`.
  package struct Departure: Sendable, Equatable {
    package var point: Int
    package var choice: ScheduleRun.Choice
  }

  package var choicePoints: Int
  package var departures: [Departure]

  package init(choices: [ScheduleRun.Choice]) {
    choicePoints = choices.count
    departures = choices.enumerated().compactMap { point, choice in
      choice.chosen == 0 ? nil : Departure(point: point, choice: choice)
    }
  }

  /// Reads a token written by ``description``; `nil` if `text` is not one.
  package init?(_ text: String) {
    guard text.hasPrefix("mrb1-") else { return nil }
    let parts = text.dropFirst(5).split(separator: "-", omittingEmptySubsequences: false)
    guard let first = parts.first, let points = Int(first, radix: 36) else { return nil }
    choicePoints = points
    var departures: [Departure] = []
    for part in parts.dropFirst() {
      let numbers = part.split(separator: ".").compactMap { Int($0, radix: 36) }
      guard numbers.count == 3, numbers[1] > 0, numbers[1] < numbers[2] else { return nil }
      departures.append(
        Departure(
          point: numbers[0], choice: ScheduleRun.Choice(count: numbers[2], chosen: numbers[1])))
    }
    self.departures = departures
  }

  package var description: String {
    (["mrb1", String(choicePoints, radix: 36)]
      + departures.map {
        [$0.point, $0.choice.chosen, $0.choice.count].map { String($0, radix: 36) }
          .joined(separator: ".")
      }).joined(separator: "-")
  }
}
