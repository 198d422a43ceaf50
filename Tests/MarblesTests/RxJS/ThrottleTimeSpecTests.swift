import MarbleTesting
import Marbles
import Signals
import Testing

/// RxJS 7.8.2 `spec/operators/throttleTime-spec.ts`, ported by the rules of the Porting article (see `RxJSPorting.swift`).
@Suite struct ThrottleTimeSpecTests {
  /// `throttleTime(t)`: RxJS's default `{ leading: true, trailing: false }`.
  func throttleTime<S: SignalProtocol>(
    _ frames: Int, _ scheduler: TestScheduler, leading: Bool = true, trailing: Bool = false,
    _ source: S
  ) -> Signal<S.Value, S.Failure> {
    source.throttle(.milliseconds(frames), leading: leading, trailing: trailing, on: scheduler)
  }

  /// it('should immediately emit the first value in each time window')
  @Test func immediatelyEmitsTheFirstValueInEachTimeWindow() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a-x-y----b---x-cx---|")
    let expected = "-a--------b-----c----|"
    let subs = "    ^--------------------!"
    scheduler.expect(throttleTime(5, scheduler, e1)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(subs)
    scheduler.flush()
  }

  /// it('should simply mirror the source if values are not emitted often enough')
  @Test func mirrorsTheSourceIfValuesAreNotEmittedOftenEnough() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a--------b-----c----|")
    let subs = "    ^--------------------!"
    let expected = "-a--------b-----c----|"
    scheduler.expect(throttleTime(5, scheduler, e1)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(subs)
    scheduler.flush()
  }

  /// it('should handle a busy producer emitting a regular repeating sequence')
  @Test func handlesABusyProducerEmittingARegularRepeatingSequence() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  abcdefabcdefabcdefabcdefa|")
    let subs = "    ^------------------------!"
    let expected = "a-----a-----a-----a-----a|"
    scheduler.expect(throttleTime(5, scheduler, e1)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(subs)
    scheduler.flush()
  }

  /// it('should complete when source does not emit')
  @Test func completesWhenSourceDoesNotEmit() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -----|")
    let subs = "    ^----!"
    let expected = "-----|"
    scheduler.expect(throttleTime(5, scheduler, e1)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(subs)
    scheduler.flush()
  }

  /// it('should raise error when source does not emit and raises error')
  @Test func raisesErrorWhenSourceDoesNotEmitAndRaisesError() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -----#")
    let subs = "    ^----!"
    let expected = "-----#"
    scheduler.expect(throttleTime(10, scheduler, e1)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(subs)
    scheduler.flush()
  }

  /// it('should handle an empty source')
  @Test func handlesAnEmptySource() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.cold(" |")
    let subs = "    (^!)"
    let expected = "|"
    scheduler.expect(throttleTime(30, scheduler, e1)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(subs)
    scheduler.flush()
  }

  /// it('should throttle and does not complete when source does not completes')
  @Test func throttlesAndDoesNotCompleteWhenSourceDoesNotComplete() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a--(bc)-------d----------------")
    let unsub = "   -------------------------------!"
    let subs = "    ^------------------------------!"
    let expected = "-a-------------d----------------"
    scheduler.expect(throttleTime(5, scheduler, e1), subscription: unsub).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(subs)
    scheduler.flush()
  }

  /// it('should throttle values until source raises error')
  @Test func throttlesValuesUntilSourceRaisesError() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a--(bc)-------d---------------#")
    let subs = "    ^------------------------------!"
    let expected = "-a-------------d---------------#"
    scheduler.expect(throttleTime(5, scheduler, e1)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(subs)
    scheduler.flush()
  }

  /// describe('throttleTime(fn, { leading: true, trailing: true })')
  /// it('should immediately emit the first and last values in each time window')
  @Test func leadingAndTrailingEmitTheFirstAndLastValuesInEachTimeWindow() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a-xy-----b--x--cxxx--|")
    let e1subs = "  ^---------------------!"
    let t = 4  // time('   ----|                 ')
    let expected = "-a---y----b---x---x---(x|)"
    let result = throttleTime(t, scheduler, trailing: true, e1)
    scheduler.expect(result).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// describe('throttleTime(fn, { leading: true, trailing: true })')
  /// it('should emit the value if only a single one is given')
  @Test func leadingAndTrailingEmitASingleValue() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a--------------------|")
    let t = 4  // time('   ----|                 ')
    let expected = "-a--------------------|"
    scheduler.expect(throttleTime(t, scheduler, trailing: true, e1)).toBe(expected)
    scheduler.flush()
  }

  /// describe('throttleTime(fn, { leading: false, trailing: true })')
  /// it('should immediately emit the last value in each time window')
  @Test func trailingOnlyEmitsTheLastValueInEachTimeWindow() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a-xy-----b--x--cxxx--|")
    let e1subs = "  ^---------------------!"
    let t = 4  // time('   ----|                 ')
    let expected = "-----y--------x---x---(x|)"
    let result = throttleTime(t, scheduler, leading: false, trailing: true, e1)
    scheduler.expect(result).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// describe('throttleTime(fn, { leading: false, trailing: true })')
  /// it('should emit the last throttled value when complete')
  @Test func trailingOnlyEmitsTheLastThrottledValueWhenComplete() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a-xy-----b--x--cxx-|")
    let e1subs = "  ^-------------------!"
    let t = 4  // time('   ----|               ')
    let expected = "-----y--------x---x-|"
    let result = throttleTime(t, scheduler, leading: false, trailing: true, e1)
    scheduler.expect(result).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// describe('throttleTime(fn, { leading: false, trailing: true })')
  /// it('should emit the value if only a single one is given')
  @Test func trailingOnlyEmitsASingleValueAtTheEndOfItsWindow() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a--------------------|")
    let t = 4  // time('   ----|                 ')
    let expected = "-----a----------------|"
    let result = throttleTime(t, scheduler, leading: false, trailing: true, e1)
    scheduler.expect(result).toBe(expected)
    scheduler.flush()
  }
}
