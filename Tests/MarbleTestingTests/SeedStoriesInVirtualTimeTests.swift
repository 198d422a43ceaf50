import MarbleTesting
import Signals
import Testing

/// The timed experiments of the seed articles (`shared/seeds/`), run on virtual time with one tick
/// = 100 ms, so "1.1 s" is tick 11. Each asserts the exact tick of every event.
@Suite struct SeedStoriesInVirtualTimeTests {
  /// Seeds 000/002/004: subscribers 1–2 at 0.1 s, "package 1" sent at 1 s, subscribers 3–4 at 1.1 s,
  /// "package 2" at 2 s; once with a `Subject`, once with a `ReplaySubject`.
  @Test func subjectVersusReplaySubject() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let subject = Subject<String, Never>()
    let replaySubject = ReplaySubject<String, Never>()
    let fromSubject = [1, 1, 11, 11].map { scheduler.record(subject, subscribeAt: $0) }
    let fromReplay = [1, 1, 11, 11].map { scheduler.record(replaySubject, subscribeAt: $0) }
    scheduler.schedule(after: .seconds(1)) {
      subject.sendNext("package 1")
      replaySubject.sendNext("package 1")
    }
    scheduler.schedule(after: .seconds(2)) {
      subject.sendNext("package 2")
      replaySubject.sendNext("package 2")
    }
    scheduler.run()

    for early in fromSubject[0...1] {
      #expect(early.events == [.next(10, "package 1"), .next(20, "package 2")])
    }
    for late in fromSubject[2...3] {
      #expect(
        late.events == [.next(20, "package 2")], "a subject's late subscriber misses package 1")
    }
    for early in fromReplay[0...1] {
      #expect(early.events == [.next(10, "package 1"), .next(20, "package 2")])
    }
    for late in fromReplay[2...3] {
      #expect(late.events == [.next(11, "package 1"), .next(20, "package 2")])
    }
  }

  /// Seed 002: a cold signal sending A at 1.5 s, B at 3 s and completing at 5 s after its
  /// subscription, made hot by a subject that subscribes to it at 2 s. Subscriber 1 at 0, subscriber
  /// 2 at 4 s.
  final class ColdSource: Sendable {
    let runs = Log<Int>()
    let signal: Signal<String, Never>

    init(_ scheduler: TestScheduler) {
      let runs = runs
      signal = Signal { subscriber in
        runs.append(scheduler.now)
        let timers = CompoundDisposable()
        timers.add(scheduler.schedule(after: .seconds(1.5)) { subscriber.sendNext("A") })
        timers.add(scheduler.schedule(after: .seconds(3)) { subscriber.sendNext("B") })
        timers.add(scheduler.schedule(after: .seconds(5)) { subscriber.sendCompleted() })
        return timers
      }
    }
  }

  @Test func coldTurnedHotByASubjectSubscribingAtTwoSeconds() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let cold = ColdSource(scheduler)
    let subject = Subject<String, Never>()
    scheduler.schedule(after: .seconds(2)) { cold.signal.subscribe(subject) }
    let subscriber1 = scheduler.record(subject, subscribeAt: 0)
    let subscriber2 = scheduler.record(subject, subscribeAt: 40)
    scheduler.run()

    #expect(cold.runs.all == [20], "the cold closure runs once, at 2 s")
    #expect(subscriber1.events == [.next(35, "A"), .next(50, "B"), .completed(70)])
    #expect(subscriber2.events == [.next(50, "B"), .completed(70)])
  }

  @Test func coldTurnedHotByMulticastAndConnectAtTwoSeconds() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let cold = ColdSource(scheduler)
    let connection = cold.signal.multicast(Subject())
    scheduler.schedule(after: .seconds(2)) { connection.connect() }
    let subscriber1 = scheduler.record(connection.signal, subscribeAt: 0)
    let subscriber2 = scheduler.record(connection.signal, subscribeAt: 40)
    scheduler.run()

    #expect(cold.runs.all == [20])
    #expect(subscriber1.events == [.next(35, "A"), .next(50, "B"), .completed(70)])
    #expect(subscriber2.events == [.next(50, "B"), .completed(70)])
  }

  @Test func coldTurnedHotByAutoconnectWithSubscribersAtTwoAndFourSeconds() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let cold = ColdSource(scheduler)
    let hot = cold.signal.multicast(Subject()).autoconnect()
    let subscriber1 = scheduler.record(hot, subscribeAt: 20)
    let subscriber2 = scheduler.record(hot, subscribeAt: 40)
    scheduler.run()

    #expect(cold.runs.all == [20], "the first subscriber connects; the second does not resubscribe")
    #expect(subscriber1.events == [.next(35, "A"), .next(50, "B"), .completed(70)])
    #expect(subscriber2.events == [.next(50, "B"), .completed(70)])
  }

  /// Seed 003: subscriber 1; send 1; subscriber 2; send 2; subscriber 3; send 3; complete — one step
  /// per tick, for each kind of subject.
  func interleave(_ subject: Subject<Int, Never>) -> [TestSubscriber<Int, Never>] {
    let scheduler = TestScheduler()
    let subscribers = [0, 2, 4].map { scheduler.record(subject, subscribeAt: $0) }
    scheduler.schedule(at: 1) { subject.sendNext(1) }
    scheduler.schedule(at: 3) { subject.sendNext(2) }
    scheduler.schedule(at: 5) { subject.sendNext(3) }
    scheduler.schedule(at: 6) { subject.sendCompleted() }
    scheduler.run()
    return subscribers
  }

  @Test func seed003Subject() {
    let s = interleave(Subject())
    #expect(s[0].events == [.next(1, 1), .next(3, 2), .next(5, 3), .completed(6)])
    #expect(s[1].events == [.next(3, 2), .next(5, 3), .completed(6)])
    #expect(s[2].events == [.next(5, 3), .completed(6)])
  }

  @Test func seed003BehaviorSubjectWithDefaultValueZero() {
    let s = interleave(BehaviorSubject(value: 0))
    #expect(s[0].events == [.next(0, 0), .next(1, 1), .next(3, 2), .next(5, 3), .completed(6)])
    #expect(s[1].events == [.next(2, 1), .next(3, 2), .next(5, 3), .completed(6)])
    #expect(s[2].events == [.next(4, 2), .next(5, 3), .completed(6)])
  }

  @Test func seed003ReplaySubject() {
    let s = interleave(ReplaySubject())
    #expect(s[0].events == [.next(1, 1), .next(3, 2), .next(5, 3), .completed(6)])
    #expect(s[1].events == [.next(2, 1), .next(3, 2), .next(5, 3), .completed(6)])
    #expect(s[2].events == [.next(4, 1), .next(4, 2), .next(5, 3), .completed(6)])
  }

  /// Seed 004's `publish` example: a signal sending 1, 2, 3 at 1, 2, 3 s and completing at 4 s,
  /// published and connected at once. The article's prose says the subscribers come at 0.1 s and
  /// 2 s, but its log shows subscriber 1's first value was 2 and subscriber 2's was 3 — so they
  /// subscribed after 1 s and after 2 s; we place them at 1.1 s and 2.1 s, as the log shows.
  @Test func seed004PublishLateSubscribersMissWhatWasAlreadySent() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let runs = Log<Int>()
    let source = Signal<Int, Never> { subscriber in
      runs.append(scheduler.now)
      let timers = CompoundDisposable()
      for value in 1...3 {
        timers.add(scheduler.schedule(after: .seconds(value)) { subscriber.sendNext(value) })
      }
      timers.add(scheduler.schedule(after: .seconds(4)) { subscriber.sendCompleted() })
      return timers
    }
    let connection = source.publish()
    connection.connect()
    let subscriber1 = scheduler.record(connection.signal, subscribeAt: 11)
    let subscriber2 = scheduler.record(connection.signal, subscribeAt: 21)
    scheduler.run()

    #expect(runs.all == [0])
    #expect(subscriber1.events == [.next(20, 2), .next(30, 3), .completed(40)])
    #expect(subscriber2.events == [.next(30, 3), .completed(40)])
  }
}
