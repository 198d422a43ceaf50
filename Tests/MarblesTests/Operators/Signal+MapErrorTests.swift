import MarbleTesting
import Marbles
import Signals
import Testing

/// `mapError(_:)` and `promoteError(to:)`.
@Suite struct SignalMapErrorTests {
  struct Wrapped: Error, Equatable {
    var inner: TestError
  }

  @Test func mapErrorTransformsTheFailureOnly() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-#", error: TestError("boom"))
    let recorder = scheduler.record(source.mapError { Wrapped(inner: $0) })
    scheduler.run()
    assertMarbles(recorder, "-a-#", error: Wrapped(inner: TestError("boom")))
    assertSubscriptions(source, "^--!")
  }

  @Test func mapErrorPassesCompletion() throws {
    let scheduler = TestScheduler()
    let source: TestSignal<String, TestError> = try scheduler.cold("-a|")
    let recorder = scheduler.record(source.mapError { Wrapped(inner: $0) })
    scheduler.run()
    assertMarbles(recorder, "-a|")
  }

  @Test func mapErrorToNeverIsNotPossibleButFromAnythingToAnythingIs() throws {
    let scheduler = TestScheduler()
    let source: TestSignal<String, Never> = try scheduler.hot("-a-b|")
    let recorder = scheduler.record(source.mapError { _ -> TestError in })
    scheduler.run()
    assertMarbles(recorder, "-a-b|")
  }

  @Test func promoteErrorTypesANeverFailingSignalToFail() throws {
    let scheduler = TestScheduler()
    let clicks: TestSignal<String, Never> = try scheduler.hot("-a---b|")
    let request = try scheduler.cold("-r#", error: TestError("offline"))
    let recorder = scheduler.record(
      clicks.promoteError(to: TestError.self).flattenMap { _ in request.asSignal() })
    scheduler.run()
    assertMarbles(recorder, "--r#", error: TestError("offline"))
    assertSubscriptions(clicks, "^--!")
  }
}
