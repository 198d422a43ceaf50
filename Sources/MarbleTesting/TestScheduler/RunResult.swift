/// What one call to ``TestScheduler/run()``, ``TestScheduler/advance(by:)-(Int)`` or
/// ``TestScheduler/advance(to:)`` did.
public struct RunResult: Sendable, Equatable, CustomStringConvertible {
  /// How many actions ran.
  public let actionsRun: Int
  /// The clock when the call returned.
  public let now: Int
  /// Why the call stopped early, or `nil` if it did all it was asked to.
  public let failure: TestSchedulerFailure?

  /// Creates a result (for comparing against in tests).
  ///
  /// - Parameters:
  ///   - actionsRun: How many actions ran.
  ///   - now: The clock when the call returned.
  ///   - failure: Why the call stopped early, if it did.
  public init(actionsRun: Int, now: Int, failure: TestSchedulerFailure? = nil) {
    self.actionsRun = actionsRun
    self.now = now
    self.failure = failure
  }

  /// Whether the call did all it was asked to.
  public var isComplete: Bool { failure == nil }

  /// `ran N actions; now at tick T`, or why the call stopped early.
  public var description: String {
    if let failure { return "stopped at tick \(now) after \(actionsRun) actions: \(failure)" }
    return "ran \(actionsRun) actions; now at tick \(now)"
  }
}

/// A misuse or runaway a ``TestScheduler`` detected and stopped instead of hanging or crashing.
///
/// The scheduler also keeps every failure in ``TestScheduler/failures``, and the `Marbles` assertions
/// and `flush()` report them as test failures.
public struct TestSchedulerFailure: Error, Sendable, Equatable, CustomStringConvertible {
  /// The kinds of failure.
  public enum Kind: Sendable, Equatable {
    /// `run()` or `advance` ran more actions than the step limit allows.
    case stepLimitExceeded
    /// `run()` or `advance` was called while the scheduler was already running actions — from
    /// another thread, or from inside one of its own actions.
    case concurrentUse
    /// Async work the scheduler drives waited ``TestScheduler/stallTimeout`` of real time with
    /// nothing driving it — a test awaiting a driven task before `run()` — and was given up.
    case undrivenWork
    /// A drain waited ``TestScheduler/stallTimeout`` of real time for the main actor to run
    /// driven main-actor work, and stopped.
    case mainActorUnavailable
  }

  /// What went wrong.
  public let kind: Kind
  /// A sentence saying what happened and what to do.
  public let message: String

  /// The ``message``.
  public var description: String { message }
}

/// Where a ``TestScheduler`` was made: the place its reports point at when no assertion carries
/// one.
package struct SchedulerSite: Sendable, CustomStringConvertible {
  package let fileID: String
  package let filePath: StaticString
  package let line: UInt
  package let column: UInt

  package init(fileID: String, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// `Module/File.swift:12`.
  package var description: String { "\(fileID):\(line)" }
}
