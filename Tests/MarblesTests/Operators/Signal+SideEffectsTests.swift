import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

/// `doNext`, `doError` and `doCompleted` (RAC 2.5): the side effect runs first, then the event is
/// forwarded.
@Suite struct SignalSideEffectsTests {
  final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
  }

  @Test func doNextRunsBeforeEachValueIsSent() throws {
    let scheduler = TestScheduler()
    let log = Log()
    let source = try scheduler.cold("-a-b|")
    let recorder = scheduler.record(
      source.doNext { value in log.append("side effect \(value)@\(scheduler.now)") }
        .doNext { value in log.append("sent \(value)") })
    scheduler.run()
    assertMarbles(recorder, "-a-b|")
    #expect(log.all == ["side effect a@1", "sent a", "side effect b@3", "sent b"])
  }

  @Test func doErrorRunsBeforeTheErrorIsSent() throws {
    let scheduler = TestScheduler()
    let log = Log()
    let source = try scheduler.cold("-a#", error: TestError("boom"))
    let recorder = scheduler.record(
      source.doError { error in log.append("side effect \(error.message)") }
        .doError { _ in log.append("sent") }
        .doCompleted { log.append("never") })
    scheduler.run()
    assertMarbles(recorder, "-a#", error: TestError("boom"))
    #expect(log.all == ["side effect boom", "sent"])
  }

  @Test func doCompletedRunsBeforeTheCompletionIsSent() throws {
    let scheduler = TestScheduler()
    let log = Log()
    let source = try scheduler.cold("-a|")
    let recorder = scheduler.record(
      source.doCompleted { log.append("side effect @\(scheduler.now)") }
        .doCompleted { log.append("sent") }
        .doError { _ in log.append("never") })
    scheduler.run()
    assertMarbles(recorder, "-a|")
    #expect(log.all == ["side effect @2", "sent"])
    assertSubscriptions(source, "^-!")
  }

  @Test func sideEffectsRunOncePerSubscription() throws {
    let scheduler = TestScheduler()
    let log = Log()
    let source = try scheduler.cold("a|").doNext { value in log.append(value) }
    _ = scheduler.record(source, subscribeAt: 0)
    _ = scheduler.record(source, subscribeAt: 3)
    scheduler.run()
    #expect(log.all == ["a", "a"])
  }
}
