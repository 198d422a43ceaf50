import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

/// `record(_:)` subscribes when it is called, as Turbine's `test {}` does (issue 31.1): a value
/// sent right after it is recorded, for signals and `AsyncSequence`s alike.
@Suite struct RecordSubscribesAtOnceTests {
  /// A presenter whose output is a subject: what a view model written with Signals looks like.
  final class Presenter: Sendable {
    let query = Subject<String, Never>()
    var searches: Signal<String, Never> { query.map { "search \($0)" } }
  }

  @Test func aValueSentRightAfterRecordIsRecorded() {
    let scheduler = TestScheduler()
    let presenter = Presenter()
    let searches = scheduler.record(presenter.searches)
    presenter.query.sendNext("sw")
    #expect(searches.nextValue() == "search sw")
    #expect(scheduler.now == 0)
  }

  @Test func aColdSignalsFirstFrameIsThereWhenRecordReturns() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("a-b|"))
    #expect(results.events == [.next(0, "a")])
    assertMarbles(results, "a")
  }

  final class Counter: Sendable {
    private let value = Mutex(0)
    func add() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
  }

  /// A sequence that notes each pull, and waits a virtual second before each element.
  struct Pulled: AsyncSequence, Sendable {
    let pulls: Counter
    struct AsyncIterator: AsyncIteratorProtocol {
      let sequence: Pulled
      var sent = 0
      mutating func next() async -> String? {
        sequence.pulls.add()
        guard sent < 2 else { return nil }
        sent += 1
        try? await Task.sleep(for: .seconds(1))
        return "v\(sent)"
      }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(sequence: self) }
  }

  @Test func aSequencesIteratingTaskTakesItsFirstStepBeforeRecordReturns() {
    let scheduler = TestScheduler(tick: .seconds(1))
    let pulled = Pulled(pulls: Counter())
    let values = scheduler.record(pulled)
    // The first next() has begun and waits in its sleep; the clock has not moved.
    #expect(pulled.pulls.count == 1)
    #expect(scheduler.now == 0)
    scheduler.run()
    assertMarbles(values, "-a(b|)", values: ["a": "v1", "b": "v2"])
  }

  @Test func aRecordForALaterTickSubscribesThen() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, Never>()
    let late = scheduler.record(subject, subscribeAt: 2)
    subject.sendNext("early")
    scheduler.schedule(at: 2) { subject.sendNext("on time") }
    scheduler.run()
    assertMarbles(late, "--a", values: ["a": "on time"])
  }
}
