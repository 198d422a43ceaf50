import Synchronization
public import Testing

/// The issues a `takingIssues` call takes, on its task.
private final class TakenIssues: Sendable {
  @TaskLocal static var current: TakenIssues?

  let issues = Mutex<[Issue]>([])
}

extension Trait where Self == IssueHandlingTrait {
  /// Lets the test's ``takingIssues(_:)`` calls take what is recorded inside them; the test's
  /// other issues are reported as usual. Without it, `takingIssues` takes nothing and the issues
  /// fail the test.
  public static var takesIssues: Self {
    .compactMapIssues { issue in
      guard let taken = TakenIssues.current else { return issue }
      taken.issues.withLock { $0.append(issue) }
      return nil
    }
  }
}

/// Runs `body` and returns the issues it recorded — failures, known issues and warnings, as the
/// test's results would show them (after every issue handler inside) — taken instead of reported,
/// so that a test can check how a failure is reported: where, with which expression and comments.
/// The test needs the ``/Testing/Trait/takesIssues`` trait.
public func takingIssues(_ body: () throws -> Void) rethrows -> [Issue] {
  let taken = TakenIssues()
  try TakenIssues.$current.withValue(taken) { try body() }
  return taken.issues.withLock { $0 }
}

/// ``takingIssues(_:)`` for an async `body`, run in the caller's isolation.
public func takingIssues(
  isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async rethrows -> [Issue] {
  let taken = TakenIssues()
  try await TakenIssues.$current.withValue(taken, operation: body, isolation: isolation)
  return taken.issues.withLock { $0 }
}

extension Issue {
  /// The issue's comments, one after another.
  public var commentText: String { comments.map(\.rawValue).joined(separator: "\n") }
}
