import Foundation
import MarbleTesting
import Marbles
import MarblesOpenCombine
import OpenCombineShim
import Signals
import Synchronization
import Testing

/// The Combine bridge's own rules (the root's `Sources/MarblesCombine`, built against OpenCombine):
/// `scheduler.combine`, `signal.publisher` and its demand, `Signal(publisher)`, and the
/// assertions for publishers.
@Suite struct BridgeTests {
  // MARK: record(publisher)

  /// `record(_:)` subscribes a publisher when it is called: a value sent right after is recorded
  /// (issue 31.1).
  @Test func recordSubscribesToAPublisherAtOnce() {
    let scheduler = TestScheduler()
    let query = PassthroughSubject<String, Never>()
    let searches = scheduler.record(query.map { "search \($0)" })
    query.send("sw")
    #expect(searches.nextValue() == "search sw")
  }

  // MARK: scheduler.combine

  @Test func strideLiteralsAreSecondsAndStridesRoundUpToTicks() {
    let scheduler = TestScheduler(tick: .milliseconds(10))
    let combine = scheduler.combine
    let log = Log()
    #expect(combine.now == VirtualTime(offset: .zero))
    combine.schedule(after: combine.now.advanced(by: 0.025)) {
      log.append("25 ms@\(scheduler.now)")
    }
    combine.schedule(after: combine.now.advanced(by: 1)) { log.append("1 s@\(scheduler.now)") }
    scheduler.run()
    #expect(log.all == ["25 ms@3", "1 s@100"], "25 ms is 3 ticks of 10 ms, rounded up")
    #expect(combine.now == VirtualTime(offset: .seconds(1)))
    #expect(combine.minimumTolerance == .zero)
  }

  @Test func immediateWorkRunsAtTheCurrentTickInOrderAndPastDatesRunNow() {
    let scheduler = TestScheduler()
    let combine = scheduler.combine
    let log = Log()
    scheduler.advance(by: 5)
    combine.schedule { log.append("first@\(scheduler.now)") }
    combine.schedule(after: VirtualTime(offset: .zero)) { log.append("past@\(scheduler.now)") }
    combine.schedule { log.append("second@\(scheduler.now)") }
    scheduler.advance(by: 0)
    #expect(log.all == ["first@5", "past@5", "second@5"])
  }

  @Test func repeatingWorkRepeatsOnVirtualTimeAndStopsOnCancel() {
    let scheduler = TestScheduler()
    let combine = scheduler.combine
    let log = Log()
    let repeating = combine.schedule(
      after: combine.now.advanced(by: .milliseconds(2)),
      interval: .milliseconds(3)
    ) { log.append("\(scheduler.now)") }
    scheduler.advance(to: 9)
    repeating.cancel()
    scheduler.run()
    #expect(log.all == ["2", "5", "8"])
    #expect(!scheduler.hasScheduledWork)
  }

  @Test func anEndlessCombineTimerStopsAtTheStepLimit() {
    let scheduler = TestScheduler(stepLimit: 50)
    let combine = scheduler.combine
    let timer = combine.schedule(after: combine.now, interval: .milliseconds(1)) {}
    let result = scheduler.run()
    #expect(result.failure?.kind == .stepLimitExceeded)
    timer.cancel()
    #expect(scheduler.takeUnreportedFailures().count == 1)
  }

  @Test func runLoopAndOperationQueueStandIns() throws {
    let scheduler = TestScheduler()
    let runLoop = scheduler.combine(for: RunLoop.OCombine.self)
    let operationQueue = scheduler.combine(for: OperationQueue.OCombine.self)
    #expect(runLoop.now.date == Date(timeIntervalSinceReferenceDate: 0))
    let input = try scheduler.hot("-a-b-|")
    scheduler.expect(input.publisher.delay(for: .milliseconds(2), scheduler: runLoop))
      .toBe("---a-b-|")
    scheduler.expect(input.publisher.debounce(for: 0.001, scheduler: operationQueue))
      .toBe("--a-b|")
    scheduler.flush()
    #expect(runLoop.now.date == Date(timeIntervalSinceReferenceDate: 0.007))
    #expect(operationQueue.now.date == Date(timeIntervalSinceReferenceDate: 0.007))
  }

  @Test func theCombineSchedulerDoesNotKeepItsSchedulerAlive() {
    weak var released: TestScheduler?
    let combine: CombineTestScheduler<VirtualTime, Never>
    do {
      let scheduler = TestScheduler()
      released = scheduler
      combine = scheduler.combine
    }
    #expect(released == nil)
    combine.schedule {}  // nothing drives it, nothing breaks
  }

  @Test func aForgottenFlushWithACombineTimeOperatorStillFails() throws {
    try withKnownIssue {
      let scheduler = TestScheduler()
      let input = try scheduler.hot("-a|")
      scheduler.expect(input.publisher.delay(for: .milliseconds(1), scheduler: scheduler.combine))
        .toBe("--a|")
    } matching: { issue in
      issue.comments.first?.rawValue.contains("this expectation was never checked") == true
    }
  }

  // MARK: Demand

  @Test func aHotSourceDropsWhatItsSubscriberDidNotRequest() throws {
    let scheduler = TestScheduler()
    let source: TestSignal<String, Never> = try scheduler.hot("-a-b-c-d-|")
    let subscriber = DemandRecorder<String, Never>(initial: .max(1))
    let recorder = scheduler.record(subscriber.received)
    scheduler.schedule(at: 0) { source.publisher.subscribe(subscriber) }
    scheduler.schedule(at: 4) { subscriber.request(.max(1)) }
    scheduler.run()
    // a is taken; b comes with no demand and is dropped; c is the one requested at 4; d is
    // dropped again.
    assertMarbles(recorder, "-a---c---|")
  }

  @Test func aColdSourceHoldsWhatItsSubscriberDidNotRequestAndItsEndWaitsBehind() throws {
    let scheduler = TestScheduler()
    let source: TestSignal<String, Never> = try scheduler.cold("-a-b-c|")
    let subscriber = DemandRecorder<String, Never>(initial: .max(1))
    let recorder = scheduler.record(subscriber.received)
    scheduler.schedule(at: 0) { source.publisher.subscribe(subscriber) }
    scheduler.schedule(at: 5) { subscriber.request(.max(1)) }
    scheduler.schedule(at: 8) { subscriber.request(.unlimited) }
    scheduler.run()
    // b is held until the request at 5; c and the end (at 6) wait for the one at 8.
    assertMarbles(recorder, "-a---b--(c|)")
    assertSubscriptions(source, "^-----!")
  }

  @Test func theSignalIsSubscribedWhenTheSubscriberSubscribesNotAtItsFirstRequest() throws {
    let scheduler = TestScheduler()
    let source: TestSignal<String, Never> = try scheduler.hot("--a--|")
    let subscriber = DemandRecorder<String, Never>(initial: .none)
    scheduler.schedule(at: 1) { source.publisher.subscribe(subscriber) }
    scheduler.schedule(at: 3) { subscriber.cancel() }
    scheduler.run()
    assertSubscriptions(source, "-^-!")
  }

  // MARK: Signal(publisher)

  @Test func aPublisherAsASignalIsColdAndCancelledByDisposal() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a-b-c-|")
    let recorder = scheduler.record(Signal(source.publisher), subscribeAt: 2, disposeAt: 5)
    scheduler.run()
    assertMarbles(recorder, "---b-")
    assertSubscriptions(source, "--^--!")
  }

  @Test func anEndedSubscriptionIsNotCancelledByALateDisposal() throws {
    let scheduler = TestScheduler()
    let fetch = try scheduler.cold("--r|")
    let shared = fetch.publisher.share()
    let first = scheduler.record(shared, subscribeAt: 0, disposeAt: 10)
    let second = scheduler.record(shared, subscribeAt: 1, disposeAt: 10)
    scheduler.run()
    assertMarbles(first, "--r|")
    assertMarbles(second, "--r|")
    assertSubscriptions(fetch, "^--!")
  }

  // MARK: Assertions for publishers

  @Test func tablesAndExpectationsTakePublishers() throws {
    struct Offline: Error, Equatable {}
    let scheduler = TestScheduler()
    let numbers: TestSignal<Int, Offline> = try scheduler.cold(
      "-1-2-#", values: ["1": 1, "2": 2], error: Offline())
    scheduler.expect(numbers.publisher.map { $0 * 10 })
      .toBe("-x-y-#", values: ["x": 10, "y": 20], error: Offline())
    let words: TestSignal<String, Never> = try scheduler.hot("-a-b|")
    scheduler.expect(words.publisher.map { $0.uppercased() }).toBe("-A-B|")
    scheduler.flush()
    assertTable(
      """
      src  hot   -a-b----c--|
      out  gets  ---a-b----c-|
      """
    ) { (sources: TableSources<String, TestError>) in
      // A table runs on a scheduler of its own: its sources' `scheduler`.
      sources["src"].publisher.delay(for: .milliseconds(1), scheduler: sources.scheduler.combine)
        .debounce(for: .milliseconds(1), scheduler: sources.scheduler.combine)
    }
  }
}

/// A thread-safe list of strings.
final class Log: Sendable {
  private let storage = Mutex<[String]>([])
  func append(_ element: String) { storage.withLock { $0.append(element) } }
  var all: [String] { storage.withLock { $0 } }
}
