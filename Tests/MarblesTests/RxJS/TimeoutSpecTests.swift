import MarbleTesting
import Marbles
import Signals
import Testing

/// RxJS 7.8.2 `spec/operators/timeout-spec.ts`, ported by the rules of the Porting article (see `RxJSPorting.swift`).
/// RxJS's `defaultTimeoutError` is `timeoutError` here.
@Suite struct TimeoutSpecTests {
  let timeoutError = TestError("TimeoutError")

  /// it('should timeout after a specified timeout period') — `timeout(t, scheduler)`
  @Test func timesOutAfterASpecifiedTimeoutPeriod() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.cold(" -------a--b--|")
    let t = 5  // time('  -----|        ')
    let e1subs = "  ^----!        "
    let expected = "-----#        "
    let result = e1.timeout(each: .milliseconds(t), on: scheduler, error: timeoutError)
    scheduler.expect(result).toBe(expected, error: timeoutError)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// it('should not timeout if source emits within timeout period')
  @Test func doesNotTimeOutIfSourceEmitsWithinTimeoutPeriod() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  --a--b--c--d--e--|")
    let t = 5  // time('  -----|            ')
    let e1subs = "  ^----------------!"
    let expected = "--a--b--c--d--e--|"
    scheduler.expect(e1.timeout(each: .milliseconds(t), on: scheduler, error: timeoutError))
      .toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// it('should allow unsubscribing explicitly and early')
  @Test func allowsUnsubscribingExplicitlyAndEarly() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  --a--b--c---d--e--|")
    let t = 5  // time('  -----|             ')
    let unsub = "   ----------!        "
    let e1subs = "  ^---------!        "
    let expected = "--a--b--c--        "
    let result = e1.timeout(each: .milliseconds(t), on: scheduler, error: timeoutError)
    scheduler.expect(result, subscription: unsub).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// it('should timeout after a specified timeout period between emit with default error while
  /// source emits')
  @Test func timesOutBetweenValuesWhileSourceEmits() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  ---a---b---c------d---e---|")
    let t = 5  // time('             -----|')
    let e1subs = "  ^---------------!          "
    let expected = "---a---b---c----#          "
    let result = e1.timeout(each: .milliseconds(t), on: scheduler, error: timeoutError)
    scheduler.expect(result).toBe(expected, error: timeoutError)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// describe('config') it('should timeout at a specified time for first value only')
  @Test func timesOutAtASpecifiedTimeForTheFirstValueOnly() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.cold(" -")
    let t = 10  // time('  ----------|')
    let e1subs = "  ^---------!"
    let expected = "----------#"
    let result = e1.timeout(first: .milliseconds(t), on: scheduler, error: timeoutError)
    scheduler.expect(result).toBe(expected, error: timeoutError)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// describe('config') it('should not timeout for long delays if only first is specified')
  @Test func doesNotTimeOutForLongDelaysIfOnlyFirstIsSpecified() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.cold(" ---a-----------------------b---|")
    let t = 10  // time('     ----------|')
    let e1subs = "  ^------------------------------!"
    let expected = "---a-----------------------b---|"
    let result = e1.timeout(first: .milliseconds(t), on: scheduler, error: timeoutError)
    scheduler.expect(result).toBe(expected, error: timeoutError)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// describe('config') it('should timeout for long delays if first is specified as Date AND each
  /// is specified') — a `Date` 13 frames after frame 0 is `first: 13` for a subscription at 0.
  @Test func timesOutForLongDelaysIfFirstAndEachAreSpecified() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.cold("   ---a-----------------------b---|")
    let first = 13  // time('-------------|')
    let each = 6  // time('    ------|')
    let e1subs = "    ^--------!"
    let expected = "  ---a-----#"
    let result = e1.timeout(
      first: .milliseconds(first), each: .milliseconds(each), on: scheduler, error: timeoutError)
    scheduler.expect(result).toBe(expected, error: timeoutError)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }
}
