@_spi(Internals) import Signals
import Synchronization

/// One run of a test under one schedule: the strategy that makes its choices, and the choices it
/// made. A scheduler made while one is current (``current``, a task local the exploration sets
/// around the test's body) asks it at each choice point of its driver.
///
/// What a schedule may reorder — and what keeps its order — is decided where the choice is made,
/// in ``TaskDriver`` and ``SchedulerCore``: jobs of different tasks bound for the generic
/// executor, the first job bound for the main actor, the wake-ups due now and the scheduler's first
/// action due now against them; jobs bound for the main actor keep their order among themselves (a
/// serial executor's queue), as do the scheduler's actions, and a choice is counted only where two
/// or more steps may go first.
package final class ScheduleRun: Sendable {
  /// One choice: how many steps could go first, which one did (0 is FIFO's) and who it was, and
  /// the digest of every choice of the run up to this one.
  package struct Choice: Sendable, Equatable {
    package var count: Int
    package var chosen: Int
    /// Who went first: `nil` in the departures an enumeration builds, which pick by place.
    package var taken: ScheduleCandidate.Identity?
    /// ``ScheduleToken/digest(_:candidates:taken:)`` of the run's choices up to this one.
    package var digest: UInt32

    package init(
      count: Int, chosen: Int, taken: ScheduleCandidate.Identity? = nil, digest: UInt32 = 0
    ) {
      self.count = count
      self.chosen = chosen
      self.taken = taken
      self.digest = digest
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
    /// Whether a scheduler follows the run: one was made while it was current.
    var isFollowed = false
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
        seed: seed &+ UInt64(bitPattern: Int64(nextScheduler.add(1, ordering: .relaxed).newValue))),
      isTheSchedulersOwn: true)
  }

  /// Whether the run is a scheduler's own random walk (`MARBLES_EXPLORE_EVERY_SCHEDULER`), not a
  /// schedule of an exploration: the test it runs in runs one order all the same.
  let isTheSchedulersOwn: Bool

  private static let everySchedulerSeed: UInt64? = Platform.environment(
    "MARBLES_EXPLORE_EVERY_SCHEDULER"
  ).flatMap { UInt64($0) }

  /// `MARBLES_EXPLORE=N`: every test that runs in a world is explored under `N` schedules — by
  /// the `.virtualTime` trait, which runs the test's body once per schedule, and for XCTest by
  /// the bridge, which runs the test again in fresh instances of its test case. A Swift Testing
  /// world that opens otherwise (in `withVirtualTime`, at a test's first `TestScheduler()`) runs
  /// one order, and its first scheduler says so in a warning.
  package static let exploreEveryTest: Int? = Platform.environment("MARBLES_EXPLORE").flatMap {
    Int($0)
  }.map { max($0, 1) }
  /// `MARBLES_REPLAY=token`: every exploration replays the token instead (run the one test it
  /// came from), and every test that runs in a world is explored, as under `MARBLES_EXPLORE`.
  package static let replayEveryTest: String? = Platform.environment("MARBLES_REPLAY").flatMap {
    $0.isEmpty ? nil : $0
  }
  /// Whether every test that runs in a world is explored: `MARBLES_EXPLORE` or `MARBLES_REPLAY`
  /// is set.
  package static var exploresEveryTest: Bool { exploreEveryTest != nil || replayEveryTest != nil }
  private static let nextScheduler = Atomic<Int>(0)

  package convenience init(_ strategy: any ScheduleStrategy) {
    self.init(strategy, isTheSchedulersOwn: false)
  }

  private init(_ strategy: any ScheduleStrategy, isTheSchedulersOwn: Bool) {
    self.isTheSchedulersOwn = isTheSchedulersOwn
    var state = State(strategy: strategy)
    // NB: room for a small test's run at once, rather than seven reallocations of each as it grows.
    state.steps.reserveCapacity(64)
    state.choices.reserveCapacity(64)
    self.state = Locked(state)
  }

  /// Asks the strategy to pick among `candidates` (two or more), and notes the choice.
  func choose(among candidates: [ScheduleCandidate]) -> Int {
    state.withLock { state in choose(among: candidates, in: &state) }
  }

  /// Asks the strategy to pick among `candidates` (two or more), and notes the choice in `state`.
  private func choose(among candidates: [ScheduleCandidate], in state: inout State) -> Int {
    let chosen = min(max(0, state.strategy.choose(among: candidates)), candidates.count - 1)
    let taken = candidates[chosen].identity
    let digest = ScheduleToken.digest(
      state.choices.last?.digest ?? 0, candidates: candidates, taken: taken)
    state.choices.append(
      Choice(count: candidates.count, chosen: chosen, taken: taken, digest: digest))
    state.pendingDeparture = chosen != 0
    return chosen
  }

  /// The choice point of a step: asks the strategy to pick among `candidates` (with two or more;
  /// else the first goes) and, where it picked one of the first `jobs` — ready jobs rather than
  /// actions due — notes that job's step, under one lock.
  func chooseStep(among candidates: [ScheduleCandidate], jobs: Int, tick: Int) -> Int {
    state.withLock { state in
      let chosen = candidates.count > 1 ? choose(among: candidates, in: &state) : 0
      if chosen < jobs { noteStep(task: candidates[chosen].task, tick: tick, in: &state) }
      return chosen
    }
  }

  /// How many steps a run's log keeps: the report draws them as lanes, and a run of more is long
  /// past drawing (an explored run may go on to its step limit, ten million).
  package static let stepLogLimit = 10_000

  /// Notes the job that runs next (after the choice that picked it, if there was one): in the
  /// log while it has room, else counted.
  func noteStep(task: UInt64?, tick: Int) {
    state.withLock { state in noteStep(task: task, tick: tick, in: &state) }
  }

  /// Notes the job that runs next in `state`: a departure if the choice before it was one.
  private func noteStep(task: UInt64?, tick: Int, in state: inout State) {
    if state.steps.count < Self.stepLogLimit {
      state.steps.append(Step(task: task, tick: tick, isDeparture: state.pendingDeparture))
    } else {
      state.stepsLeftOut += 1
    }
    state.pendingDeparture = false
  }

  /// How many steps ran past the log's limit, left out of ``steps``.
  package var stepsLeftOut: Int {
    state.withLock { $0.stepsLeftOut }
  }

  /// Names task `id` in the report's lanes (`scheduler.task(name:)`).
  func name(task id: UInt64, _ name: String) {
    state.withLock { $0.names[id] = name }
  }

  /// Names the current task's lane in the report: the test's own task, run in the world an
  /// exploration opened for the run, is "test".
  package func nameTheCurrentTask(_ name: String) {
    if let id = Jobs.currentTaskID { self.name(task: id, name) }
  }

  /// A scheduler was made to follow the run's choices.
  func noteFollowed() {
    state.withLock { $0.isFollowed = true }
  }

  /// Whether a scheduler followed the run: `false` when the body made none (it ran outside
  /// virtual time), and so nothing was explored. An exploration runs each schedule in a world of its
  /// own, whose scheduler follows the run.
  package var isFollowed: Bool {
    state.withLock { $0.isFollowed }
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

  /// Where a replay's run stopped following its token, if it did — asked once the run is over,
  /// so that a run that ended before the token's departures were reached says so too.
  package var divergence: ReplayStrategy.Divergence? {
    state.withLock { state in
      (state.strategy as? ReplayStrategy)?.divergence(afterRunOf: state.choices)
    }
  }

  /// Whether a replay's run matched its token's run to the end, past its last departure too.
  package var matchesItsTokenWholly: Bool {
    state.withLock { state in
      (state.strategy as? ReplayStrategy)?.matchesWholly(state.choices) ?? false
    }
  }

  /// The choices as a token a replay runs again.
  package var token: ScheduleToken {
    ScheduleToken(choices: choices)
  }
}

/// The choices of one schedule, as a text a test can hold: `mrb2-`, the number of choice points,
/// the digest of them all, then each departure from FIFO as `point.who.count.digest` — where it
/// is, who went first there (``ScheduleCandidate/Identity/code``), among how many, and the digest
/// of the choices up to it — numbers in base 36. A replay follows it by identity, and says where
/// a run stops matching it (``ReplayStrategy``).
package struct ScheduleToken: Sendable, Equatable, CustomStringConvertible {
  /// A choice that was not FIFO's, at choice point `point`.
  package struct Departure: Sendable, Equatable {
    package var point: Int
    package var choice: ScheduleRun.Choice

    package init(point: Int, choice: ScheduleRun.Choice) {
      self.point = point
      self.choice = choice
    }
  }

  package var choicePoints: Int
  /// The digest of every choice of the run (0 for a run without any).
  package var digest: UInt32
  package var departures: [Departure]

  package init(choices: [ScheduleRun.Choice]) {
    choicePoints = choices.count
    digest = choices.last?.digest ?? 0
    departures = choices.enumerated().compactMap { point, choice in
      choice.chosen == 0 ? nil : Departure(point: point, choice: choice)
    }
  }

  /// The digest of one more choice after the ones `previous` digests: how many candidates were
  /// offered and the first ``digestedCandidates`` of them, in order, and who was taken — 20 bits,
  /// four digits in base 36. (A choice among thousands of ready jobs is made once per job: reading
  /// them all made such a run quadratic twice over.)
  static func digest(
    _ previous: UInt32, candidates: [ScheduleCandidate], taken: ScheduleCandidate.Identity
  ) -> UInt32 {
    var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(previous) ^ UInt64(candidates.count) << 32
    // NB: an index loop and a static function, not a slice and a nested function: a debug build,
    // which is how tests are built, ran the slice's iteration unspecialized, at every choice.
    var index = 0
    let end = min(candidates.count, digestedCandidates)
    while index < end {
      hash = mix(hash, candidates[index].identity, tag: 0)
      index += 1
    }
    hash = mix(hash, taken, tag: 4)
    return UInt32(truncatingIfNeeded: (hash ^ (hash >> 20) ^ (hash >> 40)) & 0xF_FFFF)
  }

  /// `hash` with `identity` mixed in (and `tag`: the one taken is mixed in apart).
  private static func mix(_ hash: UInt64, _ identity: ScheduleCandidate.Identity, tag: UInt64)
    -> UInt64
  {
    let kind: UInt64
    let number: Int
    switch identity {
    case .task(let value): (kind, number) = (1, value)
    case .action(let value): (kind, number) = (2, value)
    case .job(let value): (kind, number) = (3, value)
    }
    var mixed =
      (hash ^ (UInt64(bitPattern: Int64(number)) << 3 | kind | tag)) &* 0xBF58_476D_1CE4_E5B9
    mixed ^= mixed >> 31
    return mixed
  }

  /// How many of a choice's candidates its digest reads (with their count).
  static let digestedCandidates = 64

  /// Reads a token written by ``description``; `nil` if `text` is not one.
  package init?(_ text: String) {
    guard text.hasPrefix("mrb2-") else { return nil }
    let parts = text.dropFirst(5).split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count >= 2, let points = Int(parts[0], radix: 36), points >= 0,
      let digest = UInt32(parts[1], radix: 36), digest <= 0xF_FFFF
    else { return nil }
    choicePoints = points
    self.digest = digest
    var departures: [Departure] = []
    for part in parts.dropFirst(2) {
      let fields = part.split(separator: ".", omittingEmptySubsequences: false)
      guard fields.count == 4, let point = Int(fields[0], radix: 36),
        let taken = ScheduleCandidate.Identity(code: fields[1]),
        let count = Int(fields[2], radix: 36), count >= 2,
        let digest = UInt32(fields[3], radix: 36), digest <= 0xF_FFFF,
        (departures.last?.point ?? -1) < point, point < points
      else { return nil }
      departures.append(
        Departure(
          point: point,
          choice: ScheduleRun.Choice(count: count, chosen: 1, taken: taken, digest: digest)))
    }
    self.departures = departures
  }

  package var description: String {
    (["mrb2", String(choicePoints, radix: 36), String(digest, radix: 36)]
      + departures.map { departure in
        [
          String(departure.point, radix: 36), departure.choice.taken?.code ?? "?",
          String(departure.choice.count, radix: 36), String(departure.choice.digest, radix: 36),
        ].joined(separator: ".")
      }).joined(separator: "-")
  }
}
