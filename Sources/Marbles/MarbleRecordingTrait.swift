public import MarbleTesting
public import Testing

/// A Swift Testing trait that sets marble record mode for a test or a suite (see
/// ``/MarbleTesting/MarbleRecording``), whatever `MARBLES_RECORD` says:
///
/// ```swift
/// @Test(.marbleRecording(.failed)) func debounce() throws { … }
/// ```
public struct MarbleRecordingTrait: TestTrait, SuiteTrait, TestScoping {
  /// When to record.
  public var mode: MarbleRecording

  /// A suite's mode applies to each of its tests.
  public var isRecursive: Bool { true }

  /// Runs the test with record mode set to ``mode``.
  ///
  /// - Parameters:
  ///   - test: The test.
  ///   - testCase: The test case, if any.
  ///   - function: The test's body.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    try await withMarbleRecording(mode) { try await function() }
  }
}

extension Trait where Self == MarbleRecordingTrait {
  /// Sets marble record mode for this test or suite (see ``/MarbleTesting/MarbleRecording``).
  ///
  /// - Parameter mode: When to record.
  /// - Returns: The trait.
  public static func marbleRecording(_ mode: MarbleRecording) -> Self {
    MarbleRecordingTrait(mode: mode)
  }
}
