import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

/// `retry(_:)` on virtual time.
@Suite struct SignalRetryTests {
  @Test func resubscribesOnErrorAtMostCountTimesThenFails() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a#")
    let subscriber = scheduler.record(source.retry(2))
    scheduler.run()
    assertMarbles(subscriber, "-a-a-a#")
    assertSubscriptions(source, "^-!", "--^-!", "----^-!")
  }

  @Test func completionEndsTheRetrying() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-|")
    let subscriber = scheduler.record(source.retry(3))
    scheduler.run()
    assertMarbles(subscriber, "-a-|")
    assertSubscriptions(source, "^--!")
  }

  @Test func aSourceThatRecoversOnALaterSubscriptionCompletes() throws {
    // The first subscription fails, the second (a new run of the deferred signal) succeeds.
    let scheduler = TestScheduler()
    let failing = try scheduler.cold("-a#")
    let succeeding = try scheduler.cold("-b|")
    let attempts = Counter()
    let source = Signal<String, TestError>.deferred {
      attempts.next() == 0 ? failing.asSignal() : succeeding.asSignal()
    }
    let subscriber = scheduler.record(source.retry(5))
    scheduler.run()
    assertMarbles(subscriber, "-a-b|")
    assertSubscriptions(failing, "^-!")
    assertSubscriptions(succeeding, "--^-!")
  }

  @Test func disposingMidFlightStopsTheRetryingAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-#")
    let subscriber = scheduler.record(source.retry(3), disposeAt: 5)
    scheduler.advance(to: 5)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the second attempt's events")
    scheduler.run()
    assertMarbles(subscriber, "-a--a")
    assertSubscriptions(source, "^--!", "---^-!")
  }

  @Test func aSignalFailingAtSubscriptionIsRetriedInALoopNotByRecursion() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("#")
    let subscriber = scheduler.record(source.retry(10_000))
    scheduler.run()
    assertMarbles(subscriber, "#")
    #expect(source.subscriptions.count == 10_001)
    #expect(source.subscriptions.allSatisfy { $0.subscribed == 0 && $0.disposed == 0 })
  }

  @Test func retryZeroNeverResubscribes() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a#")
    let subscriber = scheduler.record(source.retry(0))
    scheduler.run()
    assertMarbles(subscriber, "-a#")
    assertSubscriptions(source, "^-!")
  }

  @Test func aNegativeCountNeverRetries() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a#")
    let subscriber = scheduler.record(source.retry(-1))
    scheduler.run()
    assertMarbles(subscriber, "-a#")
    assertSubscriptions(source, "^-!")
  }

  @Test func retryWithNoCountResubscribesForEver() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a#")
    let recorder = scheduler.record(source.retry(), disposeAt: 9)
    scheduler.run()
    assertMarbles(recorder, "-a-a-a-a-")
    assertSubscriptions(source, "^-!", "--^-!", "----^-!", "------^-!", "--------^!")
  }

  @Test func retryWithNoCountEndsWithTheFirstCompletion() throws {
    let scheduler = TestScheduler()
    let attempts = Counter()
    let source = Signal<String, TestError> { subscriber in
      if attempts.next() < 2 {
        subscriber.sendError(TestError())
      } else {
        subscriber.sendNext("ok")
        subscriber.sendCompleted()
      }
      return nil
    }
    let recorder = scheduler.record(source.retry())
    scheduler.run()
    assertMarbles(recorder, "(o|)", values: ["o": "ok"])
    #expect(attempts.next() == 3)
  }
}

/// A thread-safe counter for deferred signals that change from one subscription to the next.
private final class Counter: Sendable {
  private let count = Mutex(0)

  /// The count before this call; each call adds one.
  func next() -> Int {
    count.withLock { count in
      defer { count += 1 }
      return count
    }
  }
}
