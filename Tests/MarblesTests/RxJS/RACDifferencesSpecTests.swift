import MarbleTesting
import Marbles
import Signals
import Testing

/// RxJS 7.8.2 spec cases whose expectations fail here because the operator keeps RAC 2.5's
/// semantics, as its doc comment and the README's table of differences say. Each runs the RxJS
/// expectation verbatim inside `withKnownIssue`, matching the exact first difference, then states
/// what RAC 2.5 gives.
@Suite struct RACDifferencesSpecTests {
  /// Expects the RxJS expectations checked by `flush` to fail, each issue with one of
  /// `differences` in its text.
  func flushFailing(_ scheduler: TestScheduler, _ reason: Comment, with differences: String...) {
    withKnownIssue(reason) {
      scheduler.flush()
    } matching: { issue in
      issue.comments.contains { comment in differences.contains { comment.rawValue.contains($0) } }
    }
  }

  /// `spec/operators/sample-spec.ts` it('should get samples when the notifier emits')
  @Test func sampleGetsSamplesWhenTheNotifierEmits() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  ---a----b---c----------d-----|   ")
    let e1subs = "  ^----------------------------!   "
    let e2 = try scheduler.hot("  -----x----------x---x------x---| ")
    let e2subs = "  ^----------------------------!   "
    let expected = "-----a----------c----------d-|   "
    scheduler.expect(e1.sample(e2)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.expectSubscriptions(e2).toBe(e2subs)
    flushFailing(
      scheduler, "RAC 2.5's sample: sends the latest value again on every trigger value",
      with: #"got unexpected next("c") at frame 20"#)

    let rac = TestScheduler()
    let source = try rac.hot("  ---a----b---c----------d-----|   ")
    let trigger = try rac.hot("  -----x----------x---x------x---| ")
    rac.expect(source.sample(trigger)).toBe("-----a----------c---c------d-|")
    rac.flush()
  }

  /// `spec/operators/sample-spec.ts` it('should not sample when the notifier completes')
  @Test func sampleDoesNotSampleWhenTheNotifierCompletes() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  ----a-^------b----------|")
    let e1subs = "        ^-----------------!"
    let e2 = try scheduler.hot("        -----x-----|       ")
    let e2subs = "        ^----------!       "
    let expected = "      ------------------|"
    scheduler.expect(e1.sample(e2)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.expectSubscriptions(e2).toBe(e2subs)
    flushFailing(
      scheduler, "RAC 2.5's sample: completes when the trigger completes",
      with: "got unexpected completed at frame 11; it was expected at frame 18",
      "subscription 1: expected (0, 18), got (0, 11)")

    let rac = TestScheduler()
    let source = try rac.hot("  ----a-^------b----------|")
    let trigger = try rac.hot("        -----x-----|       ")
    rac.expect(source.sample(trigger)).toBe("-----------|")
    rac.expectSubscriptions(source).toBe("^----------!")
    rac.flush()
  }

  /// `spec/operators/takeUntil-spec.ts` it('should take values until notifier emits') — the same
  /// in both.
  @Test func takeUntilTakesValuesUntilNotifierEmits() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  --a--b--c--d--e--f--g--|")
    let e1subs = "  ^------------!          "
    let e2 = try scheduler.hot("  -------------z--|       ")
    let e2subs = "  ^------------!          "
    let expected = "--a--b--c--d-|          "
    scheduler.expect(e1.takeUntil(e2)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.expectSubscriptions(e2).toBe(e2subs)
    scheduler.flush()
  }

  /// `spec/operators/takeUntil-spec.ts` it('should take values and raises error when notifier
  /// raises error')
  @Test func takeUntilWithAFailingNotifier() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  --a--b--c--d--e--f--g--|")
    let e1subs = "  ^------------!          "
    let e2 = try scheduler.hot("  -------------#          ")
    let e2subs = "  ^------------!          "
    let expected = "--a--b--c--d-#          "
    scheduler.expect(e1.takeUntil(e2)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.expectSubscriptions(e2).toBe(e2subs)
    flushFailing(
      scheduler, "RAC 2.5's takeUntil: ignores the trigger's error",
      with: #"expected error(TestError("error")) at frame 13, got nothing; it never came"#,
      "subscription 1: expected (0, 13), got (0, 23)")

    let rac = TestScheduler()
    let source = try rac.hot("  --a--b--c--d--e--f--g--|")
    let trigger = try rac.hot("  -------------#          ")
    rac.expect(source.takeUntil(trigger)).toBe("--a--b--c--d--e--f--g--|")
    rac.flush()
  }

  /// `spec/operators/takeUntil-spec.ts` it('should take all values when notifier is empty')
  @Test func takeUntilWithAnEmptyNotifier() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  --a--b--c--d--e--f--g--|")
    let e1subs = "  ^----------------------!"
    let e2 = try scheduler.hot("  -------------|          ")
    let e2subs = "  ^------------!          "
    let expected = "--a--b--c--d--e--f--g--|"
    scheduler.expect(e1.takeUntil(e2)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.expectSubscriptions(e2).toBe(e2subs)
    flushFailing(
      scheduler, "RAC 2.5's takeUntil: the trigger's completion ends the result",
      with: "got unexpected completed at frame 13; it was expected at frame 23",
      "subscription 1: expected (0, 23), got (0, 13)")

    let rac = TestScheduler()
    let source = try rac.hot("  --a--b--c--d--e--f--g--|")
    let trigger = try rac.hot("  -------------|          ")
    rac.expect(source.takeUntil(trigger)).toBe("--a--b--c--d-|")
    rac.flush()
  }

  /// `spec/operators/delay-spec.ts` it('should delay by specified timeframe')
  @Test func delayDelaysBySpecifiedTimeframe() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  ---a--b--|")
    let e1subs = "  ^--------!"
    let t = 2  // time('     --|    ')
    let expected = "-----a--b|"
    scheduler.expect(e1.delay(.milliseconds(t), on: scheduler)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    flushFailing(
      scheduler, "RAC 2.5's delay: delays the completion too",
      with: "expected completed at frame 9, got nothing; completed came at frame 11")

    let rac = TestScheduler()
    let source = try rac.hot("  ---a--b--|")
    rac.expect(source.delay(.milliseconds(2), on: rac)).toBe("-----a--b--|")
    rac.flush()
  }
}
