import MarbleTesting
import Signals
import Testing

/// The examples in README.md, verbatim, so the README cannot promise what the code does not do.
@Suite struct ReadmeExamplesTests {
  // snippet: cold-versus-hot
  @Test func coldVersusHotInTenLines() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let subject = Subject<String, Never>(), replay = ReplaySubject<String, Never>()
    let subjectLate = scheduler.record(subject, subscribeAt: 11)  // subscriber 3, at 1.1 s
    let replayLate = scheduler.record(replay, subscribeAt: 11)
    scheduler.schedule(at: 10) {
      subject.sendNext("package 1"); replay.sendNext("package 1")
    }
    scheduler.schedule(at: 20) {
      subject.sendNext("package 2"); replay.sendNext("package 2")
    }
    scheduler.run()
    #expect(subjectLate.events == [.next(20, "package 2")])  // missed package 1
    // replayed at 1.1 s:
    #expect(replayLate.events == [.next(11, "package 1"), .next(20, "package 2")])
  }
  // snippet-end

  @Test func virtualTimeReplayLazilySubscribesOnce() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold(
      [.next(2, "a"), .completed(5)] as [Recorded<Event<String, TestError>>])
    let shared = source.replayLazily()
    let first = scheduler.record(shared, subscribeAt: 0)
    let second = scheduler.record(shared, subscribeAt: 3)
    scheduler.run()
    #expect(source.subscriptions == [Subscription(0, 5)])  // subscribed exactly once
    #expect(second.events == [.next(3, "a"), .completed(5)])  // "a" replayed at 3
    #expect(first.events == [.next(2, "a"), .completed(5)])
  }
}
