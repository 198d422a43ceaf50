/// # RxJS 7.8.2 operator specs, ported
///
/// Each test in this folder is one `it(…)` of an RxJS 7.8.2 spec file
/// (`spec/operators/<name>-spec.ts` in ReactiveX/rxjs at tag 7.8.2), named in its doc comment,
/// with its marbles copied verbatim — leading spaces included, since spaces only align. The
/// translation rules are in the article *Porting tests* of the Marbles documentation
/// (`Sources/Marbles/Marbles.docc/Porting.md`).
///
/// A port whose RxJS expectation fails here is kept, the failure wrapped in `withKnownIssue` that
/// names the documented RAC 2.5 difference and matches the exact first difference — so the test
/// fails if the difference ever changes or goes away — followed by the marble RAC 2.5 gives.
enum RxJSPorting {}
