public import MarbleTesting
public import Signals

/// Turbine's names, so that a test ported from Kotlin gets the compiler's fix-it to Marbles' own
/// step instead of "no member". `expectNoEvents()` and `cancelAndIgnoreRemainingEvents()` have
/// the same names in both; Turbine's `expectMostRecentItem()` has no twin (take `values.last`
/// after driving the scheduler), nor do `awaitEvent`'s Kotlin-only variants.
extension TestSubscriber {
  /// Turbine's `awaitItem()`: ``nextValue(fileID:filePath:line:column:)`` here.
  @available(*, unavailable, renamed: "nextValue()")
  public func awaitItem() -> Value? { fatalError("unavailable") }

  /// Turbine's `awaitEvent()`: ``nextEvent(fileID:filePath:line:column:)`` here.
  @available(*, unavailable, renamed: "nextEvent()")
  public func awaitEvent() -> Event<Value, Failure>? { fatalError("unavailable") }

  /// Turbine's `awaitComplete()`: ``expectCompletion(fileID:filePath:line:column:)`` here.
  @available(*, unavailable, renamed: "expectCompletion()")
  public func awaitComplete() { fatalError("unavailable") }

  /// Turbine's `awaitError()`: ``expectFailure(fileID:filePath:line:column:)`` here.
  @available(*, unavailable, renamed: "expectFailure()")
  public func awaitError() -> Failure? { fatalError("unavailable") }

  /// Turbine's `skipItems(n)`: ``skip(_:fileID:filePath:line:column:)`` here.
  @available(*, unavailable, renamed: "skip(_:)")
  public func skipItems(_ count: Int) { fatalError("unavailable") }
}
