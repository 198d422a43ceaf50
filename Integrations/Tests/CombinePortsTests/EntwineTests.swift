import MarbleTesting
import Marbles
import MarblesOpenCombine
import OpenCombineShim
import Signals
import Synchronization
import Testing

// tcldr/Entwine (its default branch, fetched 2026-11-24): the scenarios of EntwineTest's
// `Tests/EntwineTestTests/{TestablePublisher,TestScheduler,TestableSubscriber}Tests.swift` and of
// Entwine's `Tests/EntwineTests/{ShareReplay,ReplaySubject}Tests.swift` about virtual time, hot
// and cold test publishers, subscription and cancel timing and demand, translated to Marbles by
// the rules in `Integrations/README.md` ("Translating Entwine's tests"). Their virtual time units
// are our ticks; `scheduler.start { p }` is `record(p, subscribeAt: 200, disposeAt: 900)` (their
// default configuration); their `TestSequence` is a list of `Recorded` events checked with
// `assertEvents`, the `.subscription` entry a test signal's logged subscription.

/// EntwineTest's `TestablePublisherTests`.
@Suite struct EntwineTestablePublisherTests {
  let scheduler = TestScheduler()

  /// `testColdObservableProducesExpectedValues`: a relative (cold) publisher's events at 0, 200
  /// and 400 come at 200, 400 and 600 after a subscription at 200.
  @Test func coldObservableProducesExpectedValues() throws {
    let publisher = try scheduler.cold("t 199ms t 199ms t")
    let subscriber = scheduler.record(publisher.publisher, subscribeAt: 200, disposeAt: 900)
    scheduler.run()
    assertEvents(subscriber, [.next(200, "t"), .next(400, "t"), .next(600, "t")])
    #expect(publisher.subscriptions == [MarbleTesting.Subscription(200, 900)])
  }

  /// `testHotObservableProducesExpectedValues`: an absolute (hot) publisher's events at 0, 200 and
  /// 400: a subscriber at 200 sees those at 200 and 400.
  @Test func hotObservableProducesExpectedValues() throws {
    let publisher = try scheduler.hot("t 199ms t 199ms t")
    let subscriber = scheduler.record(publisher.publisher, subscribeAt: 200, disposeAt: 900)
    scheduler.run()
    assertEvents(subscriber, [.next(200, "t"), .next(400, "t")])
  }
}

/// EntwineTest's `TestSchedulerTests`, on `scheduler.combine` (their `subject.now` is our tick).
@Suite struct EntwineTestSchedulerTests {
  let scheduler = TestScheduler()
  var combine: CombineTestScheduler<VirtualTime, Never> { scheduler.combine }

  func at(_ tick: Int) -> VirtualTime { VirtualTime(offset: .milliseconds(tick)) }

  /// `testSchedulerTasksSortSensibly`: by time, then by the order scheduled.
  @Test func tasksSortSensibly() {
    let log = Log()
    for (id, time) in [
      (0, 200), (1, 200), (2, 300), (3, 300), (4, 400), (5, 400), (6, 100), (7, 100),
    ] {
      combine.schedule(after: at(time)) { log.append("\(id)") }
    }
    scheduler.run()
    #expect(log.all == ["6", "7", "0", "1", "2", "3", "4", "5"])
  }

  /// `testSchedulerInvokesBasicTask`
  @Test func invokesBasicTask() {
    let log = Log()
    combine.schedule { log.append("ran") }
    scheduler.run()
    #expect(log.all == ["ran"])
  }

  /// `testSchedulerInvokesTasksInTimeOrder`
  @Test func invokesTasksInTimeOrder() {
    let log = Log()
    for time in [300, 200, 100] {
      combine.schedule(after: at(time)) { log.append("\(self.scheduler.now)") }
    }
    scheduler.run()
    #expect(log.all == ["100", "200", "300"])
  }

  /// `testSchedulerInvokesDeferredTask`
  @Test func invokesDeferredTask() {
    let log = Log()
    let combine = combine
    let scheduler = scheduler
    combine.schedule(after: at(100)) {
      log.append("\(scheduler.now)")
      combine.schedule(after: combine.now.advanced(by: .milliseconds(100))) {
        log.append("\(scheduler.now)")
      }
    }
    scheduler.run()
    #expect(log.all == ["100", "200"])
  }

  /// `testSchedulerInvokesDeferredTaskScheduledForPastImmediately`
  @Test func invokesDeferredTaskScheduledForPastImmediately() {
    let log = Log()
    let combine = combine
    let scheduler = scheduler
    combine.schedule(after: at(100)) {
      log.append("\(scheduler.now)")
      combine.schedule(after: combine.now.advanced(by: .milliseconds(-100))) {
        log.append("\(scheduler.now)")
      }
    }
    scheduler.run()
    #expect(log.all == ["100", "100"])
  }

  /// `testSchedulerRemovesCancelledTasks`
  @Test func removesCancelledTasks() {
    let log = Log()
    let scheduler = scheduler
    combine.schedule(after: at(100)) { log.append("\(scheduler.now)") }
    let cancellable = combine.schedule(after: at(200), interval: 0) {
      log.append("\(scheduler.now)")
    }
    combine.schedule(after: at(300)) { log.append("\(scheduler.now)") }
    cancellable.cancel()
    scheduler.run()
    #expect(log.all == ["100", "300"])
  }

  /// `testSchedulerQueues` (and `TestableSubscriberTests.testEnforcesSingleSubscriber`): a
  /// subscriber takes its first subscription only; the second publisher's values never reach it.
  @Test func queuesAndEnforcesASingleSubscription() {
    let publisher1 = PassthroughSubject<Int, Never>()
    let publisher2 = PassthroughSubject<Int, Never>()
    let results = DemandRecorder<Int, Never>(initial: .unlimited)
    let recorder = scheduler.record(results.received)
    combine.schedule(after: at(100)) { publisher1.subscribe(results) }
    combine.schedule(after: at(110)) { publisher1.send(0) }
    combine.schedule(after: at(200)) { publisher2.subscribe(results) }
    combine.schedule(after: at(210)) { publisher2.send(1) }
    combine.schedule(after: at(310)) { publisher1.send(2) }
    scheduler.run()
    assertEvents(recorder, [.next(110, 0), .next(310, 2)])
  }

  /// `testFiresEventsScheduledBeforeStartCalled`
  @Test func firesEventsScheduledBeforeTheSubscription() {
    let publisher1 = PassthroughSubject<Int, Never>()
    combine.schedule(after: at(300)) { publisher1.send(0) }
    combine.schedule(after: at(400)) { publisher1.send(1) }
    combine.schedule(after: at(500)) { publisher1.send(2) }
    let subscriber = scheduler.record(publisher1, subscribeAt: 200, disposeAt: 900)
    scheduler.run()
    assertEvents(subscriber, [.next(300, 0), .next(400, 1), .next(500, 2)])
  }

  /// `testTrampolinesImmediatelyScheduledTasks`
  @Test func trampolinesImmediatelyScheduledTasks() {
    let publisher1 = PassthroughSubject<Int, Never>()
    let subscriber = scheduler.record(publisher1, subscribeAt: 100)
    let combine = combine
    combine.schedule(after: at(200)) {
      combine.schedule {
        combine.schedule { publisher1.send(2) }
        publisher1.send(1)
      }
      publisher1.send(0)
    }
    scheduler.run()
    assertEvents(subscriber, [.next(200, 0), .next(200, 1), .next(200, 2)])
  }

  /// `testSchedulesAndCancelsRepeatingTask`: a repeat every 2 from 200, cancelled by an action at
  /// 210 that was scheduled first. EntwineTest orders a repeat's every run by the place it was
  /// first scheduled, so it runs at 210 before the cancel; Marbles orders each run by when it was
  /// rescheduled (RxJS's rule), so the cancel, scheduled earlier, comes first and there is no
  /// value at 210. A known difference, kept.
  @Test func schedulesAndCancelsRepeatingTask() {
    let publisher1 = PassthroughSubject<Int, Never>()
    let subscriber = scheduler.record(publisher1, subscribeAt: 100)
    let combine = combine
    let scheduler = scheduler
    var cancellable: (any Cancellable)?
    cancellable = combine.schedule(after: at(200), interval: .milliseconds(2)) {
      publisher1.send(scheduler.now)
    }
    combine.schedule(after: at(210)) { cancellable?.cancel() }
    scheduler.run()
    withKnownIssue("EntwineTest runs the repeat at 210 before the cancel scheduled for 210") {
      assertEvents(
        subscriber,
        [
          .next(200, 200), .next(202, 202), .next(204, 204), .next(206, 206), .next(208, 208),
          .next(210, 210),
        ])
    } matching: { issue in
      issue.comments.first?.rawValue.contains(
        "expected next(210) at tick 210, got nothing; it never came") == true
    }
    assertEvents(
      subscriber,
      [.next(200, 200), .next(202, 202), .next(204, 204), .next(206, 206), .next(208, 208)])
  }

  /// `testIgnoresTasksAfterMaxClock`: their `maxClock: 500` is `advance(to: 500)`.
  @Test func stopsAtTheClockItIsAdvancedTo() {
    let publisher1 = PassthroughSubject<Int, Never>()
    let subscriber = scheduler.record(publisher1, subscribeAt: 100)
    let scheduler = scheduler
    let cancellable = combine.schedule(after: at(0), interval: .milliseconds(100)) {
      publisher1.send(scheduler.now)
    }
    scheduler.advance(to: 500)
    cancellable.cancel()
    assertEvents(
      subscriber,
      [.next(100, 100), .next(200, 200), .next(300, 300), .next(400, 400), .next(500, 500)])
  }

  /// `testRemovesTaskCancelledWithinOwnAction`
  @Test func removesATaskCancelledWithinItsOwnAction() {
    let publisher1 = PassthroughSubject<Int, Never>()
    let subscriber = scheduler.record(publisher1, subscribeAt: 100)
    let scheduler = scheduler
    var cancellables = Set<AnyCancellable>()
    combine.schedule(after: at(200), interval: .milliseconds(100)) {
      publisher1.send(scheduler.now)
      cancellables.removeAll()
    }
    .store(in: &cancellables)
    scheduler.advance(to: 500)
    assertEvents(subscriber, [.next(200, 200)])
  }
}

/// EntwineTest's `TestableSubscriberTests`: demand, with a `DemandRecorder` in place of their
/// configurable `TestableSubscriber` (their demand ledger is theirs; what it shows — what was
/// delivered when — is the recorded marble).
@Suite struct EntwineTestableSubscriberTests {
  let scheduler = TestScheduler()
  var combine: CombineTestScheduler<VirtualTime, Never> { scheduler.combine }

  func at(_ tick: Int) -> VirtualTime { VirtualTime(offset: .milliseconds(tick)) }

  /// `testSubscriberObeysInitialDemandLimit`: no demand, nothing delivered.
  @Test func obeysAnInitialDemandOfNone() throws {
    let publisher = try scheduler.cold("100ms t 99ms t 99ms t")
    let subscriber = DemandRecorder<String, TestError>(initial: .none)
    let recorder = scheduler.record(subscriber.received)
    combine.schedule(after: at(200)) { publisher.publisher.subscribe(subscriber) }
    scheduler.advance(to: 900)
    assertEvents(recorder, [])
  }

  /// `testSubscriberObeysSubsequentDemandLimit`: values at 210, 220 and 230 wait for the demand
  /// that comes at 300, and then all come at once.
  @Test func heldValuesComeWhenDemandComes() throws {
    let publisher = try scheduler.cold("10ms t 9ms t 9ms t")
    let subscriber = DemandRecorder<String, TestError>(initial: .none)
    let recorder = scheduler.record(subscriber.received)
    combine.schedule(after: at(200)) { publisher.publisher.subscribe(subscriber) }
    combine.schedule(after: at(300)) { subscriber.request(.unlimited) }
    scheduler.advance(to: 900)
    assertEvents(recorder, [.next(300, "t"), .next(300, "t"), .next(300, "t")])
  }

  /// `testSubscriberObeysThrottledDemandLimit`: a demand of 2, replenished by 2 at 320 (100 after
  /// it ran out): 210 and 220 pass, 230 waits for 320, 340 passes on the rest.
  @Test func obeysAThrottledDemand() throws {
    let publisher = try scheduler.cold(
      "10ms a 9ms b 9ms c 109ms d", values: ["a": 1, "b": 2, "c": 3, "d": 4])
    let subscriber = DemandRecorder<Int, TestError>(initial: .max(2))
    let recorder = scheduler.record(subscriber.received)
    combine.schedule(after: at(200)) { publisher.publisher.subscribe(subscriber) }
    combine.schedule(after: at(320)) { subscriber.request(.max(2)) }
    scheduler.advance(to: 900)
    assertEvents(recorder, [.next(210, 1), .next(220, 2), .next(320, 3), .next(340, 4)])
  }

  /// `testSubscriberSignalsOnNegativeBalance`, turned around: their bad publisher sends more than
  /// was asked; a test signal's publisher never does, whatever arrives at once.
  @Test func neverSendsMoreThanRequested() throws {
    let publisher = try scheduler.cold("(ttt)")
    let subscriber = DemandRecorder<String, TestError>(initial: .max(2))
    let recorder = scheduler.record(subscriber.received)
    combine.schedule(after: at(200)) { publisher.publisher.subscribe(subscriber) }
    scheduler.advance(to: 900)
    assertEvents(recorder, [.next(200, "t"), .next(200, "t")])
  }

  /// `testDoesNotCreateRetainCycleWhenStreamFinishesBeforeSubscriberDeallocation`
  @Test func noRetainCycleWhenTheStreamFinishes() throws {
    weak var released: TestSubscriber<String, TestError>?
    do {
      let publisher = try scheduler.cold("t|")
      let subscriber = scheduler.record(publisher.publisher, subscribeAt: 200, disposeAt: 900)
      released = subscriber
      scheduler.run()
      assertEvents(subscriber, [.next(200, "t"), .completed(201)])
    }
    #expect(released == nil)
  }

  /// `testDoesNotCreateRetainCycleWhenStreamCancelledBeforeSubscriberDeallocation`
  @Test func noRetainCycleWhenTheStreamIsCancelled() throws {
    weak var released: TestSubscriber<String, TestError>?
    do {
      let publisher = try scheduler.cold("100ms t")
      let subscriber = scheduler.record(publisher.publisher, subscribeAt: 200, disposeAt: 400)
      released = subscriber
      scheduler.run()
      assertEvents(subscriber, [.next(300, "t")])
    }
    #expect(released == nil)
  }
}

/// Entwine's `ShareReplayTests`: `share(replay: n)` is `multicast { ReplayingSubject(capacity: n) }
/// .autoconnect()` — Combine's multicast with a subject that replays (Marbles' `ReplaySubject`).
@Suite struct EntwineShareReplayTests {
  let scheduler = TestScheduler()
  var combine: CombineTestScheduler<VirtualTime, Never> { scheduler.combine }

  func at(_ tick: Int) -> VirtualTime { VirtualTime(offset: .milliseconds(tick)) }

  func shareReplay<P: Publisher>(_ upstream: P, _ count: Int) -> some Publisher<Int, Never>
  where P.Output == Int, P.Failure == Never {
    upstream.multicast { ReplayingSubject<Int, Never>(capacity: count) }.autoconnect()
  }

  /// `testPassesThroughValueWithBufferOfZero`
  @Test func passesThroughWithABufferOfZero() {
    let subject = PassthroughSubject<Int, Never>()
    let sut = shareReplay(subject, 0)
    let results1 = scheduler.record(sut, subscribeAt: 100)
    let results2 = scheduler.record(sut, subscribeAt: 300)
    combine.schedule(after: at(200)) { subject.send(0) }
    combine.schedule(after: at(400)) { subject.send(1) }
    scheduler.run()
    assertEvents(results1, [.next(200, 0), .next(400, 1)])
    assertEvents(results2, [.next(400, 1)])
  }

  /// `testPassesThroughValueWithBufferOfOne`
  @Test func replaysWithABufferOfOne() {
    let subject = PassthroughSubject<Int, Never>()
    let sut = shareReplay(subject, 1)
    let results1 = scheduler.record(sut, subscribeAt: 100)
    let results2 = scheduler.record(sut, subscribeAt: 300)
    combine.schedule(after: at(200)) { subject.send(0) }
    combine.schedule(after: at(400)) { subject.send(1) }
    scheduler.run()
    assertEvents(results1, [.next(200, 0), .next(400, 1)])
    assertEvents(results2, [.next(300, 0), .next(400, 1)])
  }

  /// `testPassesThroughLatestValueWithBufferOfOne`
  @Test func replaysTheLatestWithABufferOfOne() {
    let subject = PassthroughSubject<Int, Never>()
    let sut = shareReplay(subject, 1)
    let results1 = scheduler.record(sut, subscribeAt: 100)
    let results2 = scheduler.record(sut, subscribeAt: 300)
    combine.schedule(after: at(200)) { subject.send(0) }
    combine.schedule(after: at(250)) { subject.send(1) }
    combine.schedule(after: at(400)) { subject.send(2) }
    scheduler.run()
    assertEvents(results1, [.next(200, 0), .next(250, 1), .next(400, 2)])
    assertEvents(results2, [.next(300, 1), .next(400, 2)])
  }

  /// `testPassesThroughCompletionIssuedPreSubscribe`
  @Test func passesACompletionSentBeforeTheSubscription() {
    let subject = PassthroughSubject<Int, Never>()
    let sut = shareReplay(subject, 0)
    combine.schedule(after: at(100)) { subject.send(completion: .finished) }
    let results1 = scheduler.record(sut, subscribeAt: 200)
    scheduler.run()
    assertEvents(results1, [.completed(200)])
  }

  /// `testPassesThroughCompletionIssuedPostSubscribe`
  @Test func passesACompletionSentAfterTheSubscription() {
    let subject = PassthroughSubject<Int, Never>()
    let sut = shareReplay(subject, 0)
    let results1 = scheduler.record(sut, subscribeAt: 200)
    combine.schedule(after: at(300)) { subject.send(completion: .finished) }
    scheduler.run()
    assertEvents(results1, [.completed(300)])
  }

  /// `testStopsForwardingToSubscribersPostCompletion`
  @Test func stopsForwardingAfterCompletion() {
    let subject = PassthroughSubject<Int, Never>()
    let sut = shareReplay(subject, 0)
    let results1 = scheduler.record(sut, subscribeAt: 200)
    combine.schedule(after: at(300)) { subject.send(completion: .finished) }
    combine.schedule(after: at(400)) { subject.send(0) }
    scheduler.run()
    assertEvents(results1, [.completed(300)])
  }

  /// `testImmediatelyCompletesForNewSubscribersPostPreviousCompletion`
  @Test func completesALateSubscriberAtOnce() {
    let subject = PassthroughSubject<Int, Never>()
    let sut = shareReplay(subject, 0)
    let results1 = scheduler.record(sut, subscribeAt: 200)
    let results2 = scheduler.record(sut, subscribeAt: 500)
    combine.schedule(after: at(300)) { subject.send(0) }
    combine.schedule(after: at(400)) { subject.send(completion: .finished) }
    combine.schedule(after: at(600)) { subject.send(0) }
    combine.schedule(after: at(700)) { subject.send(completion: .finished) }
    scheduler.run()
    assertEvents(results1, [.next(300, 0), .completed(400)])
    assertEvents(results2, [.completed(500)])
  }

  /// `testPassesThroughInitialValueToFirstSubscriberOnly` (Entwine's `share()` is Combine's)
  @Test func passesTheInitialValueToTheFirstSubscriberOnly() {
    let passthrough = PassthroughSubject<Int, Never>()
    let subject = passthrough.prepend(-1).share()
    let results1 = scheduler.record(subject, subscribeAt: 100)
    let results2 = scheduler.record(subject, subscribeAt: 110)
    combine.schedule(after: at(200)) { passthrough.send(0) }
    combine.schedule(after: at(210)) { passthrough.send(1) }
    scheduler.run()
    assertEvents(results1, [.next(100, -1), .next(200, 0), .next(210, 1)])
    assertEvents(results2, [.next(200, 0), .next(210, 1)])
  }

  /// `testResetsWhenReferenceCountReachesZero`: Entwine's `share(replay:)` starts afresh — a new
  /// subject, a new subscription upstream — when its subscriber count falls to zero. Combine's
  /// `autoconnect()` does subscribe upstream again, but `multicast(_:)` makes its subject once, so
  /// results2 first gets the old buffer replayed (-1 and 0), then the new upstream's -1. A known
  /// difference of the translation rule (Combine's multicast is not Entwine's share), kept.
  @Test func resetsWhenTheReferenceCountReachesZero() {
    let passthrough = PassthroughSubject<Int, Never>()
    let subject = shareReplay(passthrough.prepend(-1), 2)
    let results1 = scheduler.record(subject, subscribeAt: 100, disposeAt: 200)
    let results2 = scheduler.record(subject, subscribeAt: 200)
    combine.schedule(after: at(110)) { passthrough.send(0) }
    combine.schedule(after: at(300)) { passthrough.send(5) }
    combine.schedule(after: at(310)) { passthrough.send(6) }
    scheduler.run()
    assertEvents(results1, [.next(100, -1), .next(110, 0)])
    withKnownIssue("Combine's multicast keeps its subject when autoconnect reconnects") {
      assertEvents(results2, [.next(200, -1), .next(300, 5), .next(310, 6)])
    } matching: { issue in
      issue.comments.first?.rawValue.contains(
        "actual    [next(-1) @ 200, next(0) @ 200, next(-1) @ 200, next(5) @ 300, next(6) @ 310]")
        == true
    }
  }
}

/// Entwine's `ReplaySubjectTests`: its `ReplaySubject(maxBufferSize: n)` is Marbles'
/// `ReplaySubject(capacity: n)`, subscribed through `publisher` (`ReplayingSubject` above, where
/// Combine's `send` spelling is needed); the `PassthroughSubject` controls stay Combine's.
/// `testHasNoSubscribers`, `testHasOneSubscriber` and `testHasManySubscribers` check Entwine's
/// `subscriptionCount`, and `testSendSubscription…` and `testDuplicateSubscription…` Combine's
/// `send(subscription:)` and a subscriber subscribing twice: not about virtual time, not ported.
@Suite struct EntwineReplaySubjectTests {
  let scheduler = TestScheduler()
  var combine: CombineTestScheduler<VirtualTime, Never> { scheduler.combine }

  func at(_ tick: Int) -> VirtualTime { VirtualTime(offset: .milliseconds(tick)) }

  /// `testPassesThroughValueWithBufferOfZero`
  @Test func passesThroughWithABufferOfZero() {
    let subject = ReplayingSubject<Int, Never>(capacity: 0)
    combine.schedule(after: at(100)) { subject.send(0) }
    let results1 = scheduler.record(subject, subscribeAt: 200)
    combine.schedule(after: at(300)) { subject.send(1) }
    scheduler.run()
    assertEvents(results1, [.next(300, 1)])
  }

  /// `testPassesThroughValueWithBufferOfOne`
  @Test func replaysWithABufferOfOne() {
    let subject = ReplayingSubject<Int, Never>(capacity: 1)
    combine.schedule(after: at(100)) { subject.send(0) }
    let results1 = scheduler.record(subject, subscribeAt: 200)
    scheduler.run()
    assertEvents(results1, [.next(200, 0)])
  }

  /// `testPassesThroughLatestValueWithBufferOfOne`
  @Test func replaysTheLatestWithABufferOfOne() {
    let subject = ReplayingSubject<Int, Never>(capacity: 1)
    combine.schedule(after: at(100)) { subject.send(0) }
    combine.schedule(after: at(150)) { subject.send(1) }
    let results1 = scheduler.record(subject, subscribeAt: 200)
    scheduler.run()
    assertEvents(results1, [.next(200, 1)])
  }

  /// `testPassesThroughCompletionIssuedPreSubscribe`
  @Test func passesACompletionSentBeforeTheSubscription() {
    let subject = ReplayingSubject<Int, Never>(capacity: 0)
    combine.schedule(after: at(100)) { subject.send(completion: .finished) }
    let results1 = scheduler.record(subject, subscribeAt: 200)
    scheduler.run()
    assertEvents(results1, [.completed(200)])
  }

  /// `testPassesThroughCompletionIssuedPostSubscribe`
  @Test func passesACompletionSentAfterTheSubscription() {
    let subject = ReplayingSubject<Int, Never>(capacity: 0)
    let results1 = scheduler.record(subject, subscribeAt: 200)
    combine.schedule(after: at(300)) { subject.send(completion: .finished) }
    scheduler.run()
    assertEvents(results1, [.completed(300)])
  }

  /// `testStopsForwardingToSubscribersPostCompletion`
  @Test func stopsForwardingAfterCompletion() {
    let subject = ReplayingSubject<Int, Never>(capacity: 0)
    let results1 = scheduler.record(subject, subscribeAt: 200)
    combine.schedule(after: at(300)) { subject.send(completion: .finished) }
    combine.schedule(after: at(400)) { subject.send(0) }
    scheduler.run()
    assertEvents(results1, [.completed(300)])
  }

  /// `testImmediatelyCompletesForNewSubscribersPostPreviousCompletion`
  @Test func completesALateSubscriberAtOnce() {
    let subject = ReplayingSubject<Int, Never>(capacity: 0)
    let results1 = scheduler.record(subject, subscribeAt: 200)
    let results2 = scheduler.record(subject, subscribeAt: 500)
    combine.schedule(after: at(300)) { subject.send(0) }
    combine.schedule(after: at(400)) { subject.send(completion: .finished) }
    combine.schedule(after: at(600)) { subject.send(0) }
    combine.schedule(after: at(700)) { subject.send(completion: .finished) }
    scheduler.run()
    assertEvents(results1, [.next(300, 0), .completed(400)])
    assertEvents(results2, [.completed(500)])
  }

  /// `testReplaysValuesToNewSubscribersPostCompletion`
  @Test func replaysToANewSubscriberAfterCompletion() {
    let subject = ReplayingSubject<Int, Never>(capacity: 2)
    combine.schedule(after: at(110)) { subject.send(0) }
    combine.schedule(after: at(120)) { subject.send(1) }
    combine.schedule(after: at(130)) { subject.send(2) }
    combine.schedule(after: at(140)) { subject.send(completion: .finished) }
    let results1 = scheduler.record(subject, subscribeAt: 200)
    scheduler.run()
    assertEvents(results1, [.next(200, 1), .next(200, 2), .completed(200)])
  }

  /// `testReplaysZeroValues` and `testReplaysZeroValuesPassthroughSubjectControl`
  @Test func replaysZeroValuesLikeAPassthroughSubject() {
    let subject = ReplayingSubject<Int, Never>(capacity: 0)
    let control = PassthroughSubject<Int, Never>()
    let results1 = scheduler.record(subject, subscribeAt: 200, disposeAt: 400)
    let results2 = scheduler.record(control, subscribeAt: 200, disposeAt: 400)
    combine.schedule(after: at(300)) { subject.send(1) }
    combine.schedule(after: at(300)) { control.send(1) }
    scheduler.run()
    assertEvents(results1, [.next(300, 1)])
    assertEvents(results2, results1.events)
  }

  /// `testReplaysOneValue`
  @Test func replaysOneValue() {
    let subject = ReplayingSubject<Int, Never>(capacity: 1)
    combine.schedule(after: at(200)) { subject.send(1) }
    let results1 = scheduler.record(subject, subscribeAt: 300, disposeAt: 500)
    combine.schedule(after: at(400)) { subject.send(2) }
    scheduler.run()
    assertEvents(results1, [.next(300, 1), .next(400, 2)])
  }

  /// `testReplaysTwoValues`
  @Test func replaysTwoValues() {
    let subject = ReplayingSubject<Int, Never>(capacity: 2)
    for (time, value) in [(200, 1), (300, 2), (400, 3), (600, 4), (700, 5)] {
      combine.schedule(after: at(time)) { subject.send(value) }
    }
    let results1 = scheduler.record(subject, subscribeAt: 500, disposeAt: 800)
    scheduler.run()
    assertEvents(results1, [.next(500, 2), .next(500, 3), .next(600, 4), .next(700, 5)])
  }

  /// `testReplaysToManySubscribers`
  @Test func replaysToManySubscribers() {
    let subject = ReplayingSubject<Int, Never>(capacity: 1)
    combine.schedule(after: at(200)) { subject.send(1) }
    let results = (0..<3).map { _ in scheduler.record(subject, subscribeAt: 300, disposeAt: 500) }
    combine.schedule(after: at(400)) { subject.send(2) }
    scheduler.run()
    for result in results { assertEvents(result, [.next(300, 1), .next(400, 2)]) }
  }

  /// `testCancelPropagationDownstreamMatchesControl`
  @Test func aCancelMatchesAPassthroughSubject() {
    let subject = ReplayingSubject<Int, Never>(capacity: 1)
    let control = PassthroughSubject<Int, Never>()
    let results1 = scheduler.record(subject, subscribeAt: 200, disposeAt: 300)
    let results2 = scheduler.record(control, subscribeAt: 200, disposeAt: 300)
    scheduler.run()
    assertEvents(results1, results2.events)
  }

  /// `testDeallocationBehaviorMatchesControl`: subjects released while subscribed (their
  /// subscribers keep what they got).
  @Test func aReleasedSubjectMatchesAPassthroughSubject() {
    let subject = Mutex<ReplayingSubject<Int, Never>?>(ReplayingSubject(capacity: 0))
    let control = Mutex<PassthroughSubject<Int, Never>?>(PassthroughSubject())
    let results1 = scheduler.record(subject.withLock { $0! }, subscribeAt: 200)
    let results2 = scheduler.record(control.withLock { $0! }, subscribeAt: 200)
    combine.schedule(after: at(300)) { subject.withLock { $0?.send(0) } }
    combine.schedule(after: at(300)) { control.withLock { $0?.send(0) } }
    combine.schedule(after: at(400)) { subject.withLock { $0 = nil } }
    combine.schedule(after: at(400)) { control.withLock { $0 = nil } }
    scheduler.run()
    assertEvents(results1, [.next(300, 0)])
    assertEvents(results2, results1.events)
  }

  /// `testReentrancyBehaviorMatchesControl`: sends that schedule the next send at the same tick.
  @Test func reentrantSendsMatchAPassthroughSubject() {
    let subject = ReplayingSubject<Int, Never>(capacity: 1)
    let control = PassthroughSubject<Int, Never>()
    let results1 = scheduler.record(subject, subscribeAt: 200)
    let results2 = scheduler.record(control, subscribeAt: 200)
    let combine = scheduler.combine
    @Sendable func reenter(_ send: @escaping @Sendable (Int) -> Void, _ i: Int) {
      guard i < 10 else { return }
      combine.schedule {
        reenter(send, i + 1)
        send(i)
      }
    }
    let sendSubject = Unchecked(subject)
    let sendControl = Unchecked(control)
    combine.schedule(after: at(300)) { reenter({ sendSubject.value.send($0) }, 0) }
    combine.schedule(after: at(300)) { reenter({ sendControl.value.send($0) }, 0) }
    scheduler.run()
    assertEvents(results1, (0..<10).map { .next(300, $0) })
    assertEvents(results2, results1.events)
  }
}
