public import Signals

// A test signal drawn without `error:` and without a type annotation fails with `TestError`
// (a `#` needs an error to stand for); code under test often takes signals that cannot fail. Swift
// takes a `let`'s type from its declaration, never from a later use, so `let input =
// try scheduler.hot("--a--b--")` is a `TestSignal<String, TestError>`, and combining it with a
// `Never` signal failed with "requires the types 'TestError' and 'Never' be equivalent". These
// overloads are never called: they are what the compiler finds instead, and their message is the
// fix. (Written where the failure type is the call's own, the annotation is inferred:
// `never.merge(try scheduler.hot("--a--b--"))` compiles as it is.)

extension SignalProtocol where Failure == Never {
  /// A signal that cannot fail merged with a test signal that can: see
  /// ``TestScheduler/hot(_:)->TestSignal<String,Failure>``.
  @available(
    *, unavailable,
    message:
      "this signal cannot fail and the test signal fails with TestError (a marble drawn without `error:` and without a type annotation): declare it `let input: TestSignal<String, Never> = try scheduler.hot(\"--a--b--\")`"
  )
  public func merge(_ other: TestSignal<Value, TestError>) -> Signal<Value, Never> {
    fatalError("unavailable")
  }

  /// A signal that cannot fail followed by a test signal that can: see
  /// ``TestScheduler/cold(_:)->TestSignal<String,Failure>``.
  @available(
    *, unavailable,
    message:
      "this signal cannot fail and the test signal fails with TestError (a marble drawn without `error:` and without a type annotation): declare it `let input: TestSignal<String, Never> = try scheduler.cold(\"--a--b--\")`"
  )
  public func concat(_ other: TestSignal<Value, TestError>) -> Signal<Value, Never> {
    fatalError("unavailable")
  }

  /// A signal that cannot fail combined with a test signal that can: see
  /// ``TestScheduler/hot(_:)->TestSignal<String,Failure>``.
  @available(
    *, unavailable,
    message:
      "this signal cannot fail and the test signal fails with TestError (a marble drawn without `error:` and without a type annotation): declare it `let input: TestSignal<String, Never> = try scheduler.hot(\"--a--b--\")`"
  )
  public func combineLatest<Other: Sendable>(_ other: TestSignal<Other, TestError>)
    -> Signal<(Value, Other), Never>
  {
    fatalError("unavailable")
  }

  /// A signal that cannot fail zipped with a test signal that can: see
  /// ``TestScheduler/hot(_:)->TestSignal<String,Failure>``.
  @available(
    *, unavailable,
    message:
      "this signal cannot fail and the test signal fails with TestError (a marble drawn without `error:` and without a type annotation): declare it `let input: TestSignal<String, Never> = try scheduler.hot(\"--a--b--\")`"
  )
  public func zip<Other: Sendable>(_ other: TestSignal<Other, TestError>)
    -> Signal<(Value, Other), Never>
  {
    fatalError("unavailable")
  }
}

extension TestSignal where Failure == TestError {
  /// A test signal that can fail merged with a signal that cannot: see
  /// ``TestScheduler/hot(_:)->TestSignal<String,Failure>``.
  @available(
    *, unavailable,
    message:
      "the test signal fails with TestError (a marble drawn without `error:` and without a type annotation) and the other signal cannot fail: declare it `let input: TestSignal<String, Never> = try scheduler.hot(\"--a--b--\")`"
  )
  public func merge(_ other: some SignalProtocol<Value, Never>) -> Signal<Value, Never> {
    fatalError("unavailable")
  }

  /// A test signal that can fail combined with a signal that cannot: see
  /// ``TestScheduler/hot(_:)->TestSignal<String,Failure>``.
  @available(
    *, unavailable,
    message:
      "the test signal fails with TestError (a marble drawn without `error:` and without a type annotation) and the other signal cannot fail: declare it `let input: TestSignal<String, Never> = try scheduler.hot(\"--a--b--\")`"
  )
  public func combineLatest<Other: SignalProtocol>(_ other: Other)
    -> Signal<(Value, Other.Value), Never> where Other.Failure == Never
  {
    fatalError("unavailable")
  }
}
