import MarbleTesting
import Marbles
import MarblesOpenCombine
import OpenCombineShim
import Signals
import Testing

/// Cases of OpenCombine 0.14.0's own tests of its time operators
/// (`Tests/OpenCombineTests/PublisherTests/{Debounce,Throttle,Delay,Timeout,MeasureInterval,
/// ReceiveOn,SubscribeOn}Tests.swift`, on their `VirtualTimeScheduler`), redrawn as marbles on
/// `scheduler.combine` by the rules in `Integrations/README.md` ("Redrawing OpenCombine's operator
/// tests"): their virtual nanoseconds are our ticks (1 ms), their `CustomPublisher.send` at a
/// rewound time is a hot test signal's event at that tick, their `TrackingSubscriber` history is
/// the recorded marble, and their demand is a `DemandRecorder`'s. Each test names the case it
/// redraws.
@Suite struct OpenCombineOperatorTests {
  let scheduler = TestScheduler()
  var combine: CombineTestScheduler<VirtualTime, Never> { scheduler.combine }

  // MARK: DebounceTests

  /// `testBasicBehavior`: values at 0, 4 and 9, debounced by 13: only the last, at 9 + 13; then
  /// the end at 200 passes at once, and what follows it is ignored.
  @Test func debounceBasicBehavior() throws {
    let input = try scheduler.hot("1---2----3 190ms |", values: ["1": 1, "2": 2, "3": 3])
    scheduler.expect(input.publisher.debounce(for: .milliseconds(13), scheduler: combine))
      .toBe("22ms 3 177ms |", values: ["3": 3])
    scheduler.flush()
  }

  /// `testFinishBeforeDue`: a value at 0, the upstream fails at 4, before the value is due: the
  /// failure passes and the value is dropped.
  @Test func debounceFailBeforeDue() throws {
    let input = try scheduler.hot("1---#", values: ["1": 1])
    scheduler.expect(input.publisher.debounce(for: .milliseconds(13), scheduler: combine))
      .toBe("----#", values: [:])
    scheduler.flush()
  }

  /// `testFailBeforeDue` (which, despite its name, finishes): the end at 4 passes, the value due
  /// at 13 is dropped.
  @Test func debounceFinishBeforeDue() throws {
    let input = try scheduler.hot("1---|", values: ["1": 1])
    scheduler.expect(input.publisher.debounce(for: .milliseconds(13), scheduler: combine))
      .toBe("----|", values: [:])
    scheduler.flush()
  }

  /// `testCancelBeforeDue`: cancelled at 4, the value due at 13 never comes, and the upstream sees
  /// the cancel at 4.
  @Test func debounceCancelBeforeDue() throws {
    let input = try scheduler.hot("1------------------", values: ["1": 1])
    scheduler.expect(
      input.publisher.debounce(for: .milliseconds(13), scheduler: combine), subscription: "^---!"
    ).toBe("----", values: [:])
    scheduler.expectSubscriptions(input).toBe("^---!")
    scheduler.flush()
  }

  /// `testDemand`: with no demand, the value at 0 is dropped when due; after a demand of 3 at 100,
  /// values at 200, 250, 300 and 350 are each debounced by 13, and the fourth finds no demand.
  @Test func debounceDemand() throws {
    let input = try scheduler.hot(
      "1 199ms 2 49ms 3 49ms 4 49ms 5", values: ["1": 1, "2": 2, "3": 3, "4": 4, "5": 5])
    let subscriber = DemandRecorder<Int, TestError>(initial: .none)
    let recorder = scheduler.record(subscriber.received)
    scheduler.schedule(at: 0) {
      input.publisher.debounce(for: .milliseconds(13), scheduler: self.combine)
        .subscribe(subscriber)
    }
    scheduler.schedule(at: 100) { subscriber.request(.max(3)) }
    scheduler.run()
    assertMarbles(recorder, "213ms 2 49ms 3 49ms 4", values: ["2": 2, "3": 3, "4": 4])
  }

  /// A debounce whose values keep coming faster than its interval sends nothing until they stop
  /// (the behaviour their `testBasicBehavior` checks between 0 and 9).
  @Test func debounceWaitsForQuiet() throws {
    let input = try scheduler.hot("-a-b-c-d------|")
    scheduler.expect(input.publisher.debounce(for: .milliseconds(3), scheduler: combine))
      .toBe("----------d---|")
    scheduler.flush()
  }

  // MARK: ThrottleTests

  /// `testBasicBehavior` (`latest: true`): 1, 2 and 3 in one instant — the window sends the
  /// latest, 3; 4 comes after the window and is sent at once; the failure after it passes.
  @Test func throttleLatestBasicBehavior() throws {
    // The group takes five frames, as in RxJS: 4 is at frame 6.
    let input = try scheduler.hot("(123)-4---#", values: ["1": 1, "2": 2, "3": 3, "4": 4])
    scheduler.expect(
      input.publisher.throttle(for: .milliseconds(5), scheduler: combine, latest: true)
    ).toBe("3-----4---#", values: ["3": 3, "4": 4])
    scheduler.flush()
  }

  /// `testThrottleDemand` (`latest: false`): the first value of each window, as long as there is
  /// demand (here a demand of 2 for the whole test).
  @Test func throttleFirstWithDemand() throws {
    // One frame after the subscription, which the test makes at 0.
    let input = try scheduler.hot(
      "-(156)----2----3--", values: ["1": 1, "5": 5, "6": 6, "2": 2, "3": 3])
    let subscriber = DemandRecorder<Int, TestError>(initial: .max(2))
    let recorder = scheduler.record(subscriber.received)
    scheduler.schedule(at: 0) {
      input.publisher.throttle(for: .milliseconds(5), scheduler: self.combine, latest: false)
        .subscribe(subscriber)
    }
    scheduler.run()
    // 3 finds the demand used up.
    assertMarbles(recorder, "-1--------2------", values: ["1": 1, "2": 2])
  }

  /// `testThrottleGap`: a value, then one after a whole quiet window, then another after the next:
  /// each is sent as soon as it comes.
  @Test func throttleGap() throws {
    let input = try scheduler.hot("0 59ms 1 59ms 2", values: ["0": 0, "1": 1, "2": 2])
    scheduler.expect(
      input.publisher.throttle(for: .milliseconds(60), scheduler: combine, latest: false)
    ).toBe("0 59ms 1 59ms 2", values: ["0": 0, "1": 1, "2": 2])
    scheduler.flush()
  }

  /// `testRequest`: demand requested in several steps adds up; a value then passes at once.
  @Test func throttleRequestedInSteps() throws {
    let input = try scheduler.hot("---x", values: ["x": 2000])
    let subscriber = DemandRecorder<Int, TestError>(initial: .none)
    let recorder = scheduler.record(subscriber.received)
    scheduler.schedule(at: 0) {
      input.publisher.throttle(for: .milliseconds(10), scheduler: self.combine, latest: true)
        .subscribe(subscriber)
      subscriber.request(.max(10))
      subscriber.request(.max(4))
      subscriber.request(.none)
    }
    scheduler.run()
    assertMarbles(recorder, "---x", values: ["x": 2000])
  }

  /// `testNoDemandReceivesNoValues`: no demand, no value.
  @Test func throttleNoDemandReceivesNoValues() throws {
    let input = try scheduler.hot("-1---", values: ["1": 1])
    let subscriber = DemandRecorder<Int, TestError>(initial: .none)
    let recorder = scheduler.record(subscriber.received)
    scheduler.schedule(at: 0) {
      input.publisher.throttle(for: .milliseconds(1), scheduler: self.combine, latest: true)
        .subscribe(subscriber)
    }
    scheduler.run()
    assertMarbles(recorder, "-----", values: [:])
  }

  /// `testCancelWhilstScheduledOutput`: cancelled while a value waits for its window: it is
  /// never sent.
  @Test func throttleCancelWhilstScheduledOutput() throws {
    let input = try scheduler.hot("1-2------", values: ["1": 1, "2": 2])
    scheduler.expect(
      input.publisher.throttle(for: .milliseconds(5), scheduler: combine, latest: true),
      subscription: "^--!"
    ).toBe("1--", values: ["1": 1])
    scheduler.flush()
  }

  /// `testReceiveCompletionImmediatelyAfterSubscription`: the end passes.
  @Test func throttleCompletionRightAfterSubscription() throws {
    let input = try scheduler.hot("|")
    scheduler.expect(
      input.publisher.throttle(for: .milliseconds(5), scheduler: combine, latest: true)
    ).toBe("|")
    scheduler.flush()
  }

  /// `testReceiveCompletionImmediatelyAfterValue`: the value passes, then the end.
  @Test func throttleCompletionRightAfterValue() throws {
    let input = try scheduler.hot("(a|)")
    scheduler.expect(
      input.publisher.throttle(for: .milliseconds(5), scheduler: combine, latest: true)
    ).toBe("(a|)")
    scheduler.flush()
  }

  // MARK: DelayTests

  /// `testBasicBehavior`: three values at 0 come 200 later; the failure after them comes 200
  /// after it was sent.
  @Test func delayBasicBehavior() throws {
    let input = try scheduler.hot("(123) 197ms # ", values: ["1": 1, "2": 2, "3": 3])
    scheduler.expect(input.publisher.delay(for: .milliseconds(200), scheduler: combine))
      .toBe("200ms (123) 197ms #", values: ["1": 1, "2": 2, "3": 3])
    scheduler.flush()
  }

  /// `testReceiveCompletionImmediatelyAfterSubscription`: the end is delayed too.
  @Test func delayCompletionRightAfterSubscription() throws {
    let input = try scheduler.hot("|")
    scheduler.expect(input.publisher.delay(for: .milliseconds(3), scheduler: combine))
      .toBe("---|")
    scheduler.flush()
  }

  /// `testReceiveCompletionImmediatelyAfterValue`: the value and the end, each delayed.
  @Test func delayCompletionRightAfterValue() throws {
    let input = try scheduler.hot("(a|)")
    scheduler.expect(input.publisher.delay(for: .milliseconds(3), scheduler: combine))
      .toBe("---(a|)")
    scheduler.flush()
  }

  /// `testRequest`: the downstream's demand reaches the upstream, so an upstream that holds
  /// values (a cold one) sends them as requested, each delayed.
  @Test func delayPassesDemandUpstream() throws {
    let input = try scheduler.cold("(abc)|")
    let subscriber = DemandRecorder<String, TestError>(initial: .max(1))
    let recorder = scheduler.record(subscriber.received)
    scheduler.schedule(at: 0) {
      input.publisher.delay(for: .milliseconds(2), scheduler: self.combine).subscribe(subscriber)
    }
    scheduler.schedule(at: 5) { subscriber.request(.max(2)) }
    scheduler.run()
    assertMarbles(recorder, "--a----(bc|)")
  }

  /// `testCancelAlreadyCancelled`: after a cancel, nothing arrives, and the upstream saw the
  /// cancel at its tick.
  @Test func delayCancel() throws {
    let input = try scheduler.hot("a-b-c|")
    scheduler.expect(
      input.publisher.delay(for: .milliseconds(1), scheduler: combine), subscription: "^-!"
    ).toBe("-a")
    scheduler.expectSubscriptions(input).toBe("^-!")
    scheduler.flush()
  }

  // MARK: TimeoutTests

  /// `testBasicBehaviorWithoutCustomError`: values at 10 and 11 pass; 13 after the last, it
  /// finishes. (Theirs runs the scheduler until 200, as here: see
  /// ``timeoutLeavesItsTimerScheduledOnOpenCombine()``.)
  @Test func timeoutFinishesWithoutCustomError() throws {
    let input = try scheduler.hot("10ms 12 ", values: ["1": 1, "2": 2])
    let recorder = scheduler.record(input.publisher.timeout(.milliseconds(13), scheduler: combine))
    scheduler.advance(to: 200)
    assertMarbles(recorder, "10ms 12 12ms |", values: ["1": 1, "2": 2])
  }

  /// `testBasicBehaviorWithCustomError`: the same, failing with the custom error.
  @Test func timeoutFailsWithCustomError() throws {
    let input: TestSignal<Int, Late> = try scheduler.hot("10ms 12 ", values: ["1": 1, "2": 2])
    let recorder = scheduler.record(
      input.publisher.timeout(.milliseconds(13), scheduler: combine, customError: { Late() }))
    scheduler.advance(to: 200)
    assertMarbles(recorder, "10ms 12 12ms #", values: ["1": 1, "2": 2], error: Late())
  }

  /// Not theirs: OpenCombine's `timeout` leaves its repeating timer scheduled after it fires (Apple's
  /// Combine cancels it), so `run()` — and `flush()` — meet the step limit. A documented
  /// OpenCombine difference (README, "Combine"): drive such pipelines with `advance(to:)`.
  @Test func timeoutLeavesItsTimerScheduledOnOpenCombine() throws {
    let scheduler = TestScheduler(stepLimit: 1_000)
    let input = try scheduler.hot("-a")
    let recorder = scheduler.record(
      input.publisher.timeout(.milliseconds(3), scheduler: scheduler.combine))
    let result = scheduler.run()
    #expect(result.failure?.kind == .stepLimitExceeded)
    #expect(result.failure?.message.contains("a repeating action (every 3 ticks") == true)
    #expect(scheduler.takeUnreportedFailures().count == 1)
    assertMarbles(recorder, "-a--|")
  }

  /// `testUpstreamFinishesNoCustomError`: an upstream that ends in time ends the timeout.
  @Test func timeoutUpstreamFinishes() throws {
    let input = try scheduler.hot("-a--|")
    scheduler.expect(input.publisher.timeout(.milliseconds(13), scheduler: combine))
      .toBe("-a--|")
    scheduler.flush()
  }

  /// `testUpstreamFailsNoCustomError`: an upstream failure in time passes.
  @Test func timeoutUpstreamFails() throws {
    let input = try scheduler.hot("-a--#")
    scheduler.expect(input.publisher.timeout(.milliseconds(13), scheduler: combine))
      .toBe("-a--#")
    scheduler.flush()
  }

  /// `testNoUpstreamRequestOnZeroDemand`: nothing is requested, nothing passes, and the timeout
  /// still fires.
  @Test func timeoutWithNoDemand() throws {
    let input = try scheduler.hot("-a--")
    let subscriber = DemandRecorder<String, TestError>(initial: .none)
    let recorder = scheduler.record(subscriber.received)
    scheduler.schedule(at: 0) {
      input.publisher.timeout(.milliseconds(5), scheduler: self.combine).subscribe(subscriber)
    }
    scheduler.advance(to: 20)
    assertMarbles(recorder, "-----|")
  }

  /// `testCancellationWithoutCustomError`: cancelled before the timeout, nothing more comes.
  @Test func timeoutCancelled() throws {
    let input = try scheduler.hot("-a--------")
    scheduler.expect(
      input.publisher.timeout(.milliseconds(5), scheduler: combine), subscription: "^--!"
    ).toBe("-a-")
    scheduler.expectSubscriptions(input).toBe("^--!")
    scheduler.advance(to: 20)
    scheduler.flush()
  }

  // MARK: MeasureIntervalTests

  /// `testBasicBehavior`: the interval since subscription, then since each value (values at 14,
  /// 17 and 21 after a subscription at 3: 11, 3, 4 — theirs rewinds the clock to 10 once, which
  /// virtual time cannot do).
  @Test func measureIntervalBasicBehavior() throws {
    let input = try scheduler.hot("14ms 1--2---3|", values: ["1": 1, "2": 2, "3": 3])
    let measured = input.publisher.measureInterval(using: combine).map(\.duration)
    let recorder = scheduler.record(measured, subscribeAt: 3)
    scheduler.run()
    #expect(
      recorder.events == [
        .next(14, .milliseconds(11)), .next(17, .milliseconds(3)), .next(21, .milliseconds(4)),
        .completed(22),
      ])
  }

  /// `testRequest`: values sent in one instant measure zero.
  @Test func measureIntervalInOneInstant() throws {
    let input = try scheduler.hot("(000)#", values: ["0": 0])
    let recorder = scheduler.record(input.publisher.measureInterval(using: combine).map(\.duration))
    scheduler.run()
    #expect(recorder.values == [.zero, .zero, .zero])
    #expect(recorder.events.last == .error(5, TestError()))
  }

  /// `testCancelAlreadyCancelled`: after a cancel, nothing is measured.
  @Test func measureIntervalCancelled() throws {
    let input = try scheduler.hot("-a--b-")
    let recorder = scheduler.record(
      input.publisher.measureInterval(using: combine).map(\.duration), subscribeAt: 0,
      disposeAt: 2)
    scheduler.run()
    #expect(recorder.events == [.next(1, .milliseconds(1))])
    assertSubscriptions(input, "^-!")
  }

  // MARK: ReceiveOnTests

  /// `testBasicBehavior`: values and the end arrive on the scheduler, at the tick they were sent.
  @Test func receiveOnBasicBehavior() throws {
    let input = try scheduler.hot("-a-b-|")
    scheduler.expect(input.publisher.receive(on: combine)).toBe("-a-b-|")
    scheduler.flush()
  }

  /// `testReceiveCompletionImmediatelyAfterValue`: the value, then the end, in order.
  @Test func receiveOnValueThenCompletion() throws {
    let input = try scheduler.hot("-(a|)")
    scheduler.expect(input.publisher.receive(on: combine)).toBe("-(a|)")
    scheduler.flush()
  }

  /// `testReceiveOnCancelBeforeSubscription` / `testCancelAlreadyCancelled`: a cancel stops the
  /// values at its tick.
  @Test func receiveOnCancel() throws {
    let input = try scheduler.hot("-a-b-c-|")
    scheduler.expect(input.publisher.receive(on: combine), subscription: "^--!").toBe("-a-")
    scheduler.expectSubscriptions(input).toBe("^--!")
    scheduler.flush()
  }

  /// `testReceiveOnLifecycle`: a cold source delivers on the scheduler, one after another.
  @Test func receiveOnColdSource() throws {
    let input = try scheduler.cold("(ab)-c|")
    scheduler.expect(input.publisher.receive(on: combine), subscription: "--^")
      .toBe("--(ab)-c|")
    scheduler.flush()
  }

  // MARK: SubscribeOnTests

  /// `testSynchronouslySendsEventsDownstream` / `testAsynchronouslySendsEventsUpstream`: the
  /// subscription reaches the upstream on the scheduler; its events come straight down.
  @Test func subscribeOnSubscribesOnTheScheduler() throws {
    let input = try scheduler.cold("a-b|")
    scheduler.expect(input.publisher.subscribe(on: combine), subscription: "--^")
      .toBe("--a-b|")
    scheduler.expectSubscriptions(input).toBe("--^--!")
    scheduler.flush()
  }

  /// `testCancelImmediatelyAfterRequest`: a cancel also goes upstream on the scheduler.
  @Test func subscribeOnCancel() throws {
    let input = try scheduler.hot("-a-b-c-|")
    scheduler.expect(input.publisher.subscribe(on: combine), subscription: "^---!")
      .toBe("-a-b")
    scheduler.expectSubscriptions(input).toBe("^---!")
    scheduler.flush()
  }
}

/// The custom error of a timeout.
struct Late: Error, Equatable {}
