import MarbleTesting
import Marbles
import Signals
import Testing

/// The Swift Testing path: failures are captured with `withKnownIssue` and checked for their text and
/// for the line they point at.
@Suite struct AssertEventsTests {
  typealias E = Event<String, TestError>

  func recorded(_ events: [Recorded<E>]) throws -> TestSubscriber<String, TestError> {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(try scheduler.cold(events))
    scheduler.run()
    return subscriber
  }

  @Test func passesWhenTheEventsMatch() throws {
    let subscriber = try recorded([.next(2, "a"), .completed(5)])
    assertEvents(subscriber, [.next(2, "a"), .completed(5)])
  }

  @Test func reportsTheDifferenceAtTheCallersLine() throws {
    let subscriber = try recorded([.next(2, "a"), .next(5, "b"), .completed(7)])
    let line = #line + 2
    withKnownIssue {
      assertEvents(subscriber, [.next(2, "a"), .next(4, "b"), .completed(7)])
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.sourceLocation?.fileID == #fileID
        && issue.comments.map(\.rawValue) == [
          """
          recorded events differ at tick 4
            expected  [next("a") @ 2, next("b") @ 4, completed @ 7]
            actual    [next("a") @ 2, next("b") @ 5, completed @ 7]
            expected next("b") at tick 4, got nothing; next("b") came at tick 5
          """
        ]
    }
  }

  @Test func saysWhenAnEventNeverCameOrWasUnexpected() {
    typealias Diff = EventListDiff<String, TestError>
    #expect(
      Diff(expected: [.next(1, "a"), .completed(3)], actual: [.next(1, "a")])?.summary
        == "expected completed at tick 3, got nothing; it never came")
    #expect(
      Diff(expected: [.next(1, "a")], actual: [.next(1, "a"), .next(2, "x")])?.summary
        == #"got unexpected next("x") at tick 2"#)
    #expect(
      Diff(expected: [.next(1, "a")], actual: [.next(1, "b")])?.summary
        == #"expected next("a") at tick 1, got next("b")"#)
    #expect(
      Diff(expected: [.next(3, "a")], actual: [.next(1, "a")])?.summary
        == #"got unexpected next("a") at tick 1; it was expected at tick 3"#)
    #expect(Diff(expected: [.next(1, "a")], actual: [.next(1, "a")]) == nil)
  }

  @Test func reportsAnEndlessTimerOnceAtTheNextAssertion() {
    let scheduler = TestScheduler(stepLimit: 100)
    let subject = Subject<String, TestError>()
    let subscriber = scheduler.record(subject)
    scheduler.schedule(after: .zero, interval: .milliseconds(1)) {}
    scheduler.run()
    let line = #line + 2
    withKnownIssue {
      assertEvents(subscriber, [])
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue.hasPrefix(
          "TestScheduler stopped after 100 steps (its stepLimit") == true
    }
    assertEvents(subscriber, [])  // reported once: this one passes
  }

  @Test func subscriptionLogsAreCompared() throws {
    let scheduler = TestScheduler()
    let cold = try scheduler.cold([.next(1, "a"), .completed(4)] as [Recorded<E>])
    _ = scheduler.record(cold, subscribeAt: 2)
    scheduler.run()
    assertSubscriptions(cold, [Subscription(2, 6)])
    let line = #line + 2
    withKnownIssue {
      assertSubscriptions(cold, [Subscription(2, 6), Subscription(3, 7)])
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          """
          subscriptions differ
            expected  [(2, 6), (3, 7)]
            actual    [(2, 6)]
            expected 2 subscriptions, got 1; missing (3, 7)
          """
        ]
    }
  }
}
