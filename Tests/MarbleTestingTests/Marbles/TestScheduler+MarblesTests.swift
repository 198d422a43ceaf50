import MarbleTesting
import Signals
import Testing

@Suite struct TestSchedulerMarblesTests {
  struct Boom: Error, Equatable {}

  @Test func aColdMarbleSendsFrameZeroInsideSubscribe() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold("(ab)-c|")
    #expect(cold.kind == .cold)
    let subscriber = TestSubscriber<String, TestError>(scheduler)
    cold.subscribe(subscriber)
    // No scheduler step has run: frame 0 arrived synchronously.
    #expect(subscriber.events == [.next(0, "a"), .next(0, "b")])
    scheduler.run()
    #expect(subscriber.events == [.next(0, "a"), .next(0, "b"), .next(5, "c"), .completed(6)])
  }

  @Test func aColdMarbleReplaysFromEachSubscription() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold("-a-#", values: ["a": 1], error: Boom())
    let first = scheduler.record(cold, subscribeAt: 0)
    let second = scheduler.record(cold, subscribeAt: 10)
    scheduler.run()
    #expect(first.events == [.next(1, 1), .error(3, Boom())])
    #expect(second.events == [.next(11, 1), .error(13, Boom())])
    #expect(Marble.diagram(cold.subscriptions) == ["^--!", "----------^--!"])
  }

  @Test func theOtherColdAndHotOverloads() throws {
    let scheduler = TestScheduler()
    #expect(
      try scheduler.cold("a#", values: ["a": 2]).events == [.next(0, 2), .error(1, TestError())])
    #expect(try scheduler.cold("a#", error: Boom()).events == [.next(0, "a"), .error(1, Boom())])
    #expect(
      try scheduler.hot("a^#", values: ["a": 2], error: Boom()).events
        == [.next(-1, 2), .error(1, Boom())])
    #expect(
      try scheduler.hot("a^#", values: ["a": 2]).events == [.next(-1, 2), .error(1, TestError())])
    #expect(try scheduler.hot("a^#", error: Boom()).events == [.next(-1, "a"), .error(1, Boom())])
  }

  @Test func aColdMarbleRejectsACaret() {
    #expect(
      throws: MarbleSyntaxError(
        message: "'^' marks a hot signal's subscription point; a cold marble cannot have one",
        line: 1, column: 3, sourceLine: "--^-a")
    ) {
      try TestScheduler().cold("--^-a")
    }
  }

  @Test func aHotMarblesCaretIsTheCurrentTick() throws {
    let scheduler = TestScheduler()
    scheduler.advance(to: 10)
    let hot = try scheduler.hot("--a-^-b--|")
    #expect(hot.kind == .hot)
    #expect(hot.events == [.next(8, "a"), .next(12, "b"), .completed(15)])
    let subscriber = scheduler.record(hot, subscribeAt: 10)
    scheduler.run()
    // `a` happened before anyone could subscribe.
    #expect(subscriber.events == [.next(12, "b"), .completed(15)])
    #expect(hot.subscriptions == [Subscription(10, 15)])
  }

  @Test func withoutACaretAHotMarbleStartsAtTheCurrentTick() throws {
    let scheduler = TestScheduler()
    scheduler.advance(to: 5)
    let hot = try scheduler.hot("-a|")
    #expect(hot.events == [.next(6, "a"), .completed(7)])
  }

  @Test func aHotMarbleSendsToWhoeverIsSubscribed() throws {
    let scheduler = TestScheduler()
    let hot = try scheduler.hot("-a-^-b-c-d-|")
    let early = scheduler.record(hot, subscribeAt: 0)
    let late = scheduler.record(hot, subscribeAt: 3, disposeAt: 6)
    scheduler.run()
    #expect(Marble.diagram(early.events).marbles == "--b-c-d-|")
    // `d` comes at tick 6, the tick `late` disposes: the disposal comes first, as in RxJS.
    #expect(Marble.diagram(late.events).marbles == "----c")
    #expect(Marble.diagram(hot.subscriptions) == ["^-------!", "---^--!"])
  }

  @Test func subscriptionMarblesMatchTheSignalsLog() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold("--a--b--|")
    _ = scheduler.record(cold, subscribeAt: 0)
    _ = scheduler.record(cold, subscribeAt: 2, disposeAt: 6)
    _ = scheduler.record(cold, subscribeAt: 40)
    scheduler.run()
    let expected = ["^-------!", "--^---!", "40ms ^-------!"]
    let parsed = try expected.map { marble throws(MarbleSyntaxError) in
      try Marble.parseSubscription(marble)
    }
    #expect(cold.subscriptions == parsed)
    #expect(Marble.diagram(cold.subscriptions) == expected)
    #expect(try Marble.parseSubscription("40ms ^ 7ms !") == Subscription(40, 48))
  }

  @Test func timeProgressionUsesTheSchedulersTick() throws {
    let scheduler = TestScheduler(tick: .milliseconds(10))
    let cold = try scheduler.cold("a 100ms b 15ms c")
    #expect(cold.events == [.next(0, "a"), .next(11, "b"), .next(14, "c")])
    let hot = try scheduler.hot("1s ^ a")
    #expect(hot.events == [.next(1, "a")])
  }
}
