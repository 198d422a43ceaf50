/// # RxJS 7.8.2 operator specs, ported
///
/// Each test in this folder is one `it(…)` of an RxJS 7.8.2 spec file
/// (`spec/operators/<name>-spec.ts` in ReactiveX/rxjs at tag 7.8.2), named in its doc comment,
/// with its marbles copied verbatim — leading spaces included, since spaces only align. The
/// translation rules:
///
/// - `testScheduler.run(({ hot, cold, expectObservable, expectSubscriptions, time }) => { … })`
///   is a `TestScheduler()` with the default 1 ms tick (run mode's frame), and the test ends with
///   `scheduler.flush()`, which `run` does implicitly.
/// - `hot(m)` / `cold(m)` are `try scheduler.hot(m)` / `try scheduler.cold(m)`; a `values` object
///   is a `values:` map.
/// - `expectObservable(result, unsub).toBe(expected, values, error)` is
///   `scheduler.expect(result, subscription: unsub).toBe(expected, values:, error:)`.
/// - `expectSubscriptions(e.subscriptions).toBe(subs)` is
///   `scheduler.expectSubscriptions(e).toBe(subs…)`; an empty array is `toBe()`.
/// - `time('--|')` is the frame count it measures, written as a literal with the marble beside it.
/// - `#` with no error stands for `TestError()` (RxJS's default is the string `'error'`); an
///   explicit error value becomes a `TestError` with that text, on both sides.
/// - Operators map to their Signals names: `throttleTime(t, s, { leading, trailing })` is
///   `throttle(.milliseconds(t), leading:, trailing:, on: scheduler)` (RxJS's defaults: leading,
///   no trailing); `timeout(t)` and `timeout({ each: t })` are `timeout(each:)`, `{ first: t }` is
///   `timeout(first:)` (a `Date` `t` frames after frame 0 is the same deadline);
///   `debounceTime(t)` is `debounce(_:on:)`; a `map` whose function throws is `tryMap`.
///
/// A port whose RxJS expectation fails here is kept, the failure wrapped in `withKnownIssue` that
/// names the documented RAC 2.5 difference and matches the exact first difference — so the test
/// fails if the difference ever changes or goes away — followed by the marble RAC 2.5 gives.
enum RxJSPorting {}
