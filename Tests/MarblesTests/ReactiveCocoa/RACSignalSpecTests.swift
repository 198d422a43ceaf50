import MarbleTesting
import Marbles
import Signals
import Testing

/// ReactiveCocoa 2.x specs, from `ReactiveObjCTests/RACSignalSpec.m` in ReactiveCocoa/ReactiveObjC
/// (the Objective-C line that RAC 2.5's specs continue in), ported to virtual time by these rules:
///
/// - Each `[subject sendNext:]` or `sendCompleted` the spec makes, in order, happens at its own
///   frame of a hot test signal (or a `Subject` sent to from a scheduled action), so the marble
///   reads in the order the spec's lines do.
/// - `expect(…)` right after a send is checked at that frame, before the scheduler runs anything
///   later; `toEventually` is checked after the scheduler has run what is due (`advance(by: 0)`).
/// - `delay:0` and `throttle:0` on the main-thread scheduler are `delay(.zero, on: scheduler)` and
///   `debounce(.zero, on: scheduler)` (RAC 2.5's `throttle:` is `debounce` here).
/// - `RACUnit.defaultUnit` is the value `u`.
@Suite struct RACSignalSpecTests {
  /// `-sample:` it "should send the latest value when the sampler signal fires".
  @Test func sampleSendsTheLatestValueWhenTheSamplerFires() throws {
    let scheduler = TestScheduler()
    let subject = try scheduler.hot("--12-3--")
    let sampleSubject = try scheduler.hot("-u--u-uu")
    let sampled = scheduler.record(subject.sample(sampleSubject))
    scheduler.run()
    // [] after the first sample, [2] after the second, [2, 3], then [2, 3, 3]: RAC repeats.
    assertMarbles(sampled, "----2-33")
  }

  /// `-takeUntil:` it "should support value as trigger".
  @Test func takeUntilSupportsAValueAsTrigger() throws {
    let scheduler = TestScheduler()
    let subject = try scheduler.hot("-ab-c")
    let cutOffSubject = try scheduler.hot("---u")
    let taken = scheduler.record(subject.takeUntil(cutOffSubject))
    scheduler.run()
    assertMarbles(taken, "-ab|")
  }

  /// `-takeUntil:` it "should support completion as trigger".
  @Test func takeUntilSupportsCompletionAsTrigger() throws {
    let scheduler = TestScheduler()
    let subject = try scheduler.hot("--a")
    let cutOffSubject = try scheduler.hot("-|")
    let taken = scheduler.record(subject.takeUntil(cutOffSubject))
    scheduler.run()
    assertMarbles(taken, "-|")
  }

  /// `-takeUntil:` it "should squelch any values sent immediately upon subscription".
  @Test func takeUntilSquelchesValuesSentImmediatelyUponSubscription() throws {
    let scheduler = TestScheduler()
    let valueSignal = try scheduler.cold("(u|)")
    let cutOffSignal = try scheduler.cold("|")
    let taken = scheduler.record(valueSignal.takeUntil(cutOffSignal))
    scheduler.run()
    assertMarbles(taken, "|")
    assertSubscriptions(valueSignal)
  }

  /// `-delay:` it "should delay nexts" and "should delay completed".
  @Test func delayDelaysNextsAndCompletion() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let delayed = scheduler.record(subject.delay(.zero, on: scheduler))
    scheduler.advance(by: 0)
    subject.sendNext("foo")
    #expect(delayed.events.isEmpty)  // expect(next).to(beNil())
    scheduler.advance(by: 0)
    #expect(delayed.events == [.next(0, "foo")])  // toEventually(equal(@"foo"))
    subject.sendCompleted()
    #expect(!delayed.isCompleted)  // expect(@(completed)).to(beFalsy())
    scheduler.advance(by: 0)
    #expect(delayed.isCompleted)  // toEventually(beTruthy())
  }

  /// `-delay:` it "should not delay errors".
  @Test func delayDoesNotDelayErrors() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let delayed = scheduler.record(subject.delay(.zero, on: scheduler))
    scheduler.advance(by: 0)
    subject.sendError(TestError("RACSignalTestError"))
    #expect(delayed.error == TestError("RACSignalTestError"))
  }

  /// `-delay:` it "should cancel delayed events when disposed".
  @Test func delayCancelsDelayedEventsWhenDisposed() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let delayed = scheduler.record(subject.delay(.zero, on: scheduler))
    scheduler.advance(by: 0)
    subject.sendNext("foo")
    delayed.dispose()
    scheduler.run()
    #expect(delayed.events.isEmpty)
    #expect(!scheduler.hasScheduledWork)
  }

  /// `-throttle:` it "should throttle nexts" (RAC 2.5's `throttle:` is `debounce` here).
  @Test func throttleThrottlesNexts() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let throttled = scheduler.record(subject.debounce(.zero, on: scheduler))
    scheduler.advance(by: 0)
    subject.sendNext("foo")
    subject.sendNext("bar")
    #expect(throttled.values.isEmpty)
    scheduler.advance(by: 0)
    #expect(throttled.values == ["bar"])
    subject.sendNext("buzz")
    #expect(throttled.values == ["bar"])
    scheduler.advance(by: 0)
    #expect(throttled.values == ["bar", "buzz"])
  }

  /// `-throttle:` it "should forward completed immediately" and "should forward errors
  /// immediately".
  @Test func throttleForwardsCompletionAndErrorsImmediately() throws {
    let scheduler = TestScheduler()
    let completing = Subject<String, TestError>()
    let failing = Subject<String, TestError>()
    let completed = scheduler.record(completing.debounce(.zero, on: scheduler))
    let failed = scheduler.record(failing.debounce(.zero, on: scheduler))
    scheduler.advance(by: 0)
    completing.sendCompleted()
    failing.sendError(TestError("RACSignalTestError"))
    #expect(completed.isCompleted)
    #expect(failed.error == TestError("RACSignalTestError"))
  }

  /// `-throttle:` it "should cancel future nexts when disposed".
  @Test func throttleCancelsFutureNextsWhenDisposed() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let throttled = scheduler.record(subject.debounce(.zero, on: scheduler))
    scheduler.advance(by: 0)
    subject.sendNext("foo")
    throttled.dispose()
    scheduler.run()
    #expect(throttled.values.isEmpty)
  }
}
