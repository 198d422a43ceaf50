#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// When the `Marbles` assertions write the actual marbles into the test's source, in place of the
/// expected ones (record mode).
///
/// Set it for a run with the environment variable `MARBLES_RECORD` (`failed`, `missing`, or
/// `never`), or for one test with ``withMarbleRecording(_:_:)`` or the Swift
/// Testing trait `.marbleRecording(_:)`, which win over the variable.
///
/// A recording run still fails every test it recorded, saying what it wrote where; nothing is
/// silently green. A failure a Swift Testing `withKnownIssue` takes is not recorded. Only string literals are rewritten — the marble argument of
/// `expect(…).toBe(…)`, `assertMarbles`, `assertSubscriptions`, `expectSubscriptions(…).toBe(…)`,
/// and the `gets` and `subs` rows of an `assertTable` literal — and nothing else in the file
/// changes.
public enum MarbleRecording: String, Sendable, Equatable, CaseIterable {
  /// Records nothing: the default.
  case never
  /// Fills only empty literals (`""`): write the call, run once, read the marble it recorded.
  case missing
  /// Rewrites every failing expectation's literal with the actual marble.
  case failed

  /// The mode named `rawValue` (`never`, `missing`, `failed`), or `nil` for any other word.
  ///
  /// - Parameter rawValue: The mode's name.
  public init?(rawValue: String) {
    guard let mode = Self.allCases.first(where: { "\($0)" == rawValue }) else { return nil }
    self = mode
  }

  /// The mode in effect here: the innermost ``withMarbleRecording(_:_:)``,
  /// else `MARBLES_RECORD`, else ``never``.
  public static var current: MarbleRecording {
    scoped ?? environment.mode ?? .never
  }

  /// What `MARBLES_RECORD` says: a mode, or a value that names none (`nil` when unset).
  package static var environment: (mode: MarbleRecording?, unknown: String?) {
    guard let raw = getenv("MARBLES_RECORD") else { return (nil, nil) }
    let value = String(cString: raw)
    guard !value.isEmpty else { return (nil, nil) }
    if let mode = MarbleRecording(rawValue: value.lowercased()) { return (mode, nil) }
    return (nil, value)
  }

  @TaskLocal package static var scoped: MarbleRecording?
}

/// Runs `body` with marble recording set to `mode` (see ``MarbleRecording``), whatever
/// `MARBLES_RECORD` says.
///
/// ```swift
/// withMarbleRecording(.failed) {
///   assertMarbles(recorder, "")   // written with the actual marble, and reported as recorded
/// }
/// ```
///
/// - Parameters:
///   - mode: When to record.
///   - body: The work.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withMarbleRecording<Result>(
  _ mode: MarbleRecording, _ body: () throws -> Result
) rethrows -> Result {
  try MarbleRecording.$scoped.withValue(mode) { try body() }
}

/// Runs asynchronous `body` with marble recording set to `mode` (see ``MarbleRecording``).
///
/// - Parameters:
///   - mode: When to record.
///   - isolation: The caller's isolation (filled in for you).
///   - body: The work.
/// - Returns: What `body` returns.
/// - Throws: What `body` throws.
public func withMarbleRecording<Result>(
  _ mode: MarbleRecording, isolation: isolated (any Actor)? = #isolation,
  _ body: () async throws -> Result
) async rethrows -> Result {
  try await MarbleRecording.$scoped.withValue(mode, operation: body, isolation: isolation)
}
