import Testing

/// Runs `body` with every Swift Testing issue it records passed to `handle` before it is
/// reported: `handle` returns the issue to report — itself, or changed — or `nil` to report
/// nothing. Swift Testing's issue-handling trait (`IssueHandlingTrait`, Swift 6.2 and later),
/// applied to a part of a test's body instead of the whole test.
///
/// Issues reach `handle` after `withKnownIssue` has marked them known, so a `withKnownIssue` inside
/// `body` sees them first. Only issues recorded where the test's task-locals reach are handled:
/// `body`'s task and its child tasks, not a detached task or another thread.
///
/// Call it only inside a Swift Testing test (`Test.current` set).
func withIssues(
  handledBy handle: @escaping @Sendable (Issue) -> Issue?,
  isolation: isolated (any Actor)? = #isolation,
  _ body: () async throws -> Void
) async throws {
  guard let test = Test.current else { return try await body() }
  let trait = IssueHandlingTrait.compactMapIssues(handle)
  // NB: `provideScope` takes a `@Sendable` function and calls it where it runs; `body` is the
  // caller's non-`Sendable` closure, isolated to the caller's actor. It is called once, within
  // this call, and an isolated async closure goes to its actor when it starts, so the call is the
  // same as calling it here: the compiler cannot see that, and is told.
  nonisolated(unsafe) let body = body
  try await withoutActuallyEscaping(body) {
    (escaping: @escaping () async throws -> Void) async throws in
    nonisolated(unsafe) let escaping = escaping
    try await trait.provideScope(for: test, testCase: Test.Case.current) { try await escaping() }
  }
}
