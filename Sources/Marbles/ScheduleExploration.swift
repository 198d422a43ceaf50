import MarbleTesting
import Synchronization
import Testing

/// What exploring a test's schedules found (``exploreSchedules(_:seed:replay:isolation:fileID:filePath:line:column:_:)``).
public struct ScheduleExploration: Sendable, CustomStringConvertible {
  /// How many schedules ran, the failing one included (not the shrinking's runs).
  public var schedulesRun: Int
  /// The most choice points one schedule had: places where two or more jobs could go first.
  public var choicePoints: Int
  /// Whether every schedule of the test ran — every order of its same-tick work that the
  /// exploration can choose, few enough to run them all — and the exploration stopped there.
  /// `false` when there was nothing to explore (no choice point: one order, which proves nothing
  /// about orders) or part of the body ran outside virtual time, where no schedule ordered it.
  public var isExhaustive: Bool
  /// The seed the schedules came from.
  public var seed: UInt64
  /// The schedule that failed, if one did.
  public var failure: ScheduleFailure?
  /// How many departures from FIFO every schedule within which ran.
  var departuresCovered = 0
  /// When the exploration was a replay: its token, and how the run followed it — to the end, or
  /// through its last departure.
  var replayed: (token: String, howFollowed: String)? = nil

  /// "every schedule passes: all 2 of them ran (…)", "every schedule within 2 departures from
  /// FIFO passes (100 schedules in all, …)", "100 schedules pass (…)", "nothing to explore: no
  /// two pieces of work were ever ready at one tick (…)", or the failure's report.
  public var description: String {
    if let failure { return failure.description }
    if let replayed {
      return "the replay of \(replayed.token) followed its schedule\(replayed.howFollowed), and "
        + "passed"
    }
    let seedText = "seed 0x\(String(seed, radix: 16))"
    if choicePoints == 0 {
      return "nothing to explore: no two pieces of work were ever ready at one tick "
        + "(\(schedulesRun) schedule\(schedulesRun == 1 ? "" : "s") ran, \(seedText))"
    }
    if isExhaustive {
      return "every schedule passes: all \(schedulesRun) of them ran, every order of the same "
        + "tick's work that exploring can choose (\(seedText))"
    }
    if departuresCovered > 0 {
      return "every schedule within \(departuresCovered) departure"
        + "\(departuresCovered == 1 ? "" : "s") from FIFO passes (\(schedulesRun) schedules in "
        + "all, \(seedText))"
    }
    return "\(schedulesRun) schedule\(schedulesRun == 1 ? "" : "s") pass (\(seedText), at most "
      + "\(choicePoints) choice points)"
  }
}

/// A schedule that failed: which, the token that replays it, and what failed.
public struct ScheduleFailure: Sendable, CustomStringConvertible {
  /// Its number: 0 is FIFO, the order Marbles runs without exploring.
  public var schedule: Int
  /// The token that replays it: `exploreSchedules(replay:)` or `.exploringSchedules(replay:)`.
  public var replay: String
  /// How many of its choices differ from FIFO's, after shrinking.
  public var departures: Int
  /// What failed, as text: each issue with its place.
  public var issues: [String]
  /// The report: the schedule, the issues, the order that failed drawn as lanes, and how to
  /// replay it.
  public var description: String
  /// The lanes as an SVG document, attached to the Swift Testing test that reports the failure.
  var picture: String? = nil
  /// Whether the failing schedule's issues were reported where they happen, the first with
  /// ``description`` but for the issues; if not, `description` is for the caller to report.
  var isReported = false
}
