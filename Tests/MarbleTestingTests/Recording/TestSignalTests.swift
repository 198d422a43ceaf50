import MarbleTesting
import Signals
import Testing

@Suite struct TestSignalTests {
  typealias E = Event<String, TestError>

  @Test func aColdSignalReplaysItsScriptFromEachSubscribeTime() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold([.next(2, "a"), .next(5, "b"), .completed(7)] as [Recorded<E>])
    let first = scheduler.record(cold, subscribeAt: 0)
    let second = scheduler.record(cold, subscribeAt: 10)
    scheduler.run()
    #expect(first.events == [.next(2, "a"), .next(5, "b"), .completed(7)])
    #expect(second.events == [.next(12, "a"), .next(15, "b"), .completed(17)])
    #expect(cold.subscriptions == [Subscription(0, 7), Subscription(10, 17)])
  }

  @Test func aColdSignalSendsFrameZeroInsideSubscribe() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold([.next(0, "now"), .next(1, "later")] as [Recorded<E>])
    let subscriber = TestSubscriber<String, TestError>(scheduler)
    cold.subscribe(subscriber)
    // No scheduler step has run: frame 0 arrived synchronously, as with Signal.just.
    #expect(subscriber.events == [.next(0, "now")])
    scheduler.run()
    #expect(subscriber.events == [.next(0, "now"), .next(1, "later")])
  }

  @Test func aColdSignalTerminatingAtFrameZeroClosesItsSubscriptionAtOnce() throws {
    let scheduler = TestScheduler()
    scheduler.advance(to: 3)
    let cold = try scheduler.cold([.next(0, "x"), .completed(0)] as [Recorded<E>])
    cold.subscribe(TestSubscriber(scheduler))
    #expect(cold.subscriptions == [Subscription(3, 3)])
  }

  @Test func disposingAColdSubscriptionCancelsItsPendingEvents() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold([.next(2, "a"), .next(6, "b"), .completed(8)] as [Recorded<E>])
    let subscriber = scheduler.record(cold, subscribeAt: 1, disposeAt: 5)
    scheduler.run()
    #expect(subscriber.events == [.next(3, "a")])
    #expect(cold.subscriptions == [Subscription(1, 5)])
    #expect(scheduler.now == 5, "cancelled actions neither run nor move the clock")
  }

  @Test func aHotSignalSendsAtAbsoluteTicksToWhoeverIsSubscribed() throws {
    let scheduler = TestScheduler()
    let hot = try scheduler.hot(
      [.next(-2, "early"), .next(2, "a"), .next(5, "b"), .next(8, "c"), .completed(10)]
        as [Recorded<E>])
    let early = scheduler.record(hot, subscribeAt: 0)
    let late = scheduler.record(hot, subscribeAt: 6, disposeAt: 9)
    scheduler.run()
    #expect(early.events == [.next(2, "a"), .next(5, "b"), .next(8, "c"), .completed(10)])
    #expect(late.events == [.next(8, "c")])
    #expect(hot.subscriptions == [Subscription(0, 10), Subscription(6, 9)])
  }

  /// RxJS's order: at one tick the harness subscribes and disposes before a hot signal sends,
  /// whichever was made first.
  @Test func aRecorderSubscribedAtAHotEventsTickSeesIt() throws {
    let scheduler = TestScheduler()
    let hot = try scheduler.hot([.next(5, "a"), .next(6, "b")] as [Recorded<E>])
    let subscriber = scheduler.record(hot, subscribeAt: 5)
    scheduler.run()
    #expect(subscriber.events == [.next(5, "a"), .next(6, "b")])
  }

  @Test func aRecorderDisposedAtAHotEventsTickDoesNotSeeIt() throws {
    let scheduler = TestScheduler()
    let recorderFirst = scheduler.record(
      try scheduler.hot([.next(5, "a")] as [Recorded<E>]), subscribeAt: 0, disposeAt: 5)
    let hot = try scheduler.hot([.next(5, "a")] as [Recorded<E>])
    let hotFirst = scheduler.record(hot, subscribeAt: 0, disposeAt: 5)
    scheduler.run()
    #expect(recorderFirst.events == [])
    #expect(hotFirst.events == [])
  }

  @Test func harnessActionsKeepTheirOwnOrderAndComeBeforeOtherWorkAtTheirTick() {
    let scheduler = TestScheduler()
    let order = Log<String>()
    scheduler.schedule(at: 2) { order.append("action scheduled first") }
    let subject = Subject<String, Never>()
    _ = scheduler.record(
      Signal<String, Never> { subscriber in
        order.append("subscription 1")
        return subject.subscribe(subscriber)
      }, subscribeAt: 2)
    _ = scheduler.record(
      Signal<String, Never> { _ in
        order.append("subscription 2")
        return nil
      }, subscribeAt: 2)
    scheduler.run()
    #expect(order.all == ["subscription 1", "subscription 2", "action scheduled first"])
  }

  @Test func aHotSignalGivesLateSubscribersItsTerminalEventAtOnce() throws {
    let scheduler = TestScheduler()
    let hot = try scheduler.hot([.next(1, "a"), .error(3, TestError("boom"))] as [Recorded<E>])
    let late = scheduler.record(hot, subscribeAt: 7)
    scheduler.run()
    #expect(late.events == [.error(7, TestError("boom"))])
    #expect(late.error == TestError("boom"))
    #expect(hot.subscriptions == [Subscription(7, 7)])
  }

  @Test func anOpenSubscriptionPrintsAsInfinite() throws {
    let scheduler = TestScheduler()
    let hot = try scheduler.hot([.next(1, "a")] as [Recorded<E>])
    _ = scheduler.record(hot, subscribeAt: 3)
    scheduler.run()
    #expect(hot.subscriptions == [Subscription(subscribed: 3, disposed: nil)])
    #expect(hot.subscriptions.description == "[(3, ∞)]")
  }

  @Test func eventListsThatBreakTheGrammarAreRejected() {
    let scheduler = TestScheduler()
    #expect(throws: EventListError.self) {
      try scheduler.cold([.next(1, "a"), .completed(2), .next(3, "b")] as [Recorded<E>])
    }
    do {
      _ = try scheduler.hot([.completed(2), .completed(4)] as [Recorded<E>])
      Issue.record("expected a throw")
    } catch {
      #expect(error.index == 1)
      #expect(
        error.description
          == "event 1: completed @ 4 comes after completed @ 2; nothing may follow a terminal event"
      )
    }
  }

  @Test func coldEventListsCannotStartBeforeTheSubscription() {
    let scheduler = TestScheduler()
    #expect(throws: EventListError.self) {
      try scheduler.cold([.next(-1, "a")] as [Recorded<E>])
    }
    #expect(throws: Never.self) {
      try scheduler.hot([.next(-1, "a")] as [Recorded<E>])
    }
  }

  @Test func eventListsMustBeInTimeOrder() {
    let scheduler = TestScheduler()
    #expect(throws: EventListError.self) {
      try scheduler.hot([.next(5, "a"), .next(3, "b")] as [Recorded<E>])
    }
  }

  @Test func recordedEventsPrintReadably() {
    let events: [Recorded<E>] = [.next(2, "a"), .error(5, TestError("boom")), .completed(8)]
    #expect(events.description == #"[next("a") @ 2, error(TestError("boom")) @ 5, completed @ 8]"#)
    #expect(Subscription(0, 8).description == "(0, 8)")
    #expect(Subscription(3).description == "(3, ∞)")
    #expect(TestError().description == #"TestError("error")"#)
  }

  @Test func testSubscriberConveniences() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold([.next(1, "a"), .next(2, "b"), .completed(3)] as [Recorded<E>])
    let subscriber = scheduler.record(cold)
    scheduler.run()
    #expect(subscriber.values == ["a", "b"])
    #expect(subscriber.isCompleted)
    #expect(subscriber.error == nil)
  }

  @Test func severalEventsAtOneTickGoOutInOrderWithTheTerminalLast() throws {
    let script: [Recorded<E>] = [
      .next(0, "a"), .next(0, "b"), .next(2, "c"), .next(2, "d"), .completed(2),
    ]
    let scheduler = TestScheduler()
    let cold = try scheduler.cold(script)
    let coldSubscriber = scheduler.record(cold, subscribeAt: 1)
    let hot = try scheduler.hot(script.map { Recorded(time: $0.time + 5, value: $0.value) })
    let hotSubscriber = scheduler.record(hot)
    scheduler.run()
    #expect(
      coldSubscriber.events == [
        .next(1, "a"), .next(1, "b"), .next(3, "c"), .next(3, "d"), .completed(3),
      ])
    #expect(
      hotSubscriber.events == [
        .next(5, "a"), .next(5, "b"), .next(7, "c"), .next(7, "d"), .completed(7),
      ])
  }

  @Test func aTerminalEventAloneAtItsTickEndsTheScript() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold([.next(1, "a"), .error(4, TestError())] as [Recorded<E>])
    let subscriber = scheduler.record(cold)
    scheduler.run()
    #expect(subscriber.events == [.next(1, "a"), .error(4, TestError())])
    #expect(cold.subscriptions == [Subscription(0, 4)])
  }

  @Test func aRecorderKeepsThousandsOfValuesInOrder() throws {
    let scheduler = TestScheduler()
    let script: [Recorded<Event<Int, TestError>>] = (0..<1_000).map { .next($0 / 3 + 1, $0) }
    let hot = try scheduler.hot(script + [.completed(400)])
    let subscriber = scheduler.record(hot)
    scheduler.run()
    #expect(subscriber.values == Array(0..<1_000))
    #expect(subscriber.events == script + [.completed(400)])
  }

  @Test func aRecorderReleasesTheValuesItRecordedWhenItIsReleased() throws {
    final class Payload: Sendable {}
    weak var first: Payload?
    weak var last: Payload?
    do {
      let scheduler = TestScheduler()
      let payloads = (0..<40).map { _ in Payload() }
      first = payloads.first
      last = payloads.last
      let subject = Subject<Payload, Never>()
      let subscriber = TestSubscriber<Payload, Never>(scheduler)
      subject.subscribe(subscriber)
      for payload in payloads { subject.sendNext(payload) }
      // Ends the subscription, which the recorder and its sink otherwise keep alive together.
      subject.sendCompleted()
      #expect(subscriber.values.count == 40)
      #expect(subscriber.values.first === payloads.first)
    }
    #expect(first == nil)
    #expect(last == nil)
  }
}
