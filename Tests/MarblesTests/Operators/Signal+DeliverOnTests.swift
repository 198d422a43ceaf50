import Dispatch
import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

/// `deliver(on:)` on virtual time.
@Suite struct SignalDeliverOnTests {
  @Test func deliversEachEventInAScheduledActionInOrder() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let subscriber = TestSubscriber<String, TestError>(scheduler)
    subject.deliver(on: scheduler).subscribe(subscriber)
    subject.sendNext("a")
    subject.sendNext("b")
    subject.sendCompleted()
    #expect(subscriber.events.isEmpty, "nothing is delivered before the scheduler runs")
    #expect(scheduler.pendingActionCount == 1, "one delivery action at a time")
    scheduler.advance(by: 0)
    assertMarbles(subscriber, "(ab|)")
  }

  @Test func framesDoNotMoveOnATestScheduler() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-(bc)--d|")
    let subscriber = scheduler.record(source.deliver(on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "-a-(bc)--d|")
    assertSubscriptions(source, "^---------!")
  }

  @Test func anErrorIsDeliveredAfterTheValuesBeforeIt() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-(bc#)")
    let subscriber = scheduler.record(source.deliver(on: scheduler))
    scheduler.run()
    assertMarbles(subscriber, "-a-(bc#)")
    assertSubscriptions(source, "^--!")
  }

  @Test func disposingCancelsThePendingDeliveryAndDropsTheQueue() throws {
    let scheduler = TestScheduler()
    let subject = Subject<String, TestError>()
    let subscriber = TestSubscriber<String, TestError>(scheduler)
    subject.deliver(on: scheduler).subscribe(subscriber)
    subject.sendNext("a")
    subject.sendNext("b")
    #expect(scheduler.hasScheduledWork, "a's delivery waits")
    subscriber.dispose()
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the pending delivery")
    scheduler.run()
    #expect(subscriber.events.isEmpty)
  }

  @Test func aDisposalQueuedInTheSameTickBeforeTheDeliveryWins() throws {
    // The hot source sends b at 3 (queued when it was made); b's delivery action is queued then,
    // after the disposal `record` queued for 3 — so b is never delivered.
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a-b")
    let subscriber = scheduler.record(source.deliver(on: scheduler), disposeAt: 3)
    scheduler.advance(to: 3)
    #expect(!scheduler.hasScheduledWork, "b's delivery was cancelled")
    assertMarbles(subscriber, "-a-")
    assertSubscriptions(source, "^--!")
  }
}

/// `deliver(on:)` on a real, concurrent queue.
@Suite struct SignalDeliverOnConcurrencyTests {
  final class Received: Sendable {
    private let values = Mutex<[Int]>([])
    var all: [Int] { values.withLock { $0 } }
    func append(_ value: Int) { values.withLock { $0.append(value) } }
  }

  @Test func theOrderHoldsOnASchedulerThatRunsActionsConcurrently() {
    let scheduler = QueueScheduler(
      queue: DispatchQueue(label: "deliver-on-test", attributes: .concurrent))
    let subject = Subject<Int, Never>()
    let received = Received()
    let done = DispatchSemaphore(value: 0)
    let subscription = subject.deliver(on: scheduler).subscribe(
      next: { received.append($0) }, completed: { done.signal() })
    let count = 20_000
    for value in 0..<count {
      subject.sendNext(value)
      // Let the queue drain now and then, so that it runs empty between events.
      if value % 7 == 0 { for _ in 0..<200 { _ = value &* value } }
    }
    subject.sendCompleted()
    done.wait()
    subscription.dispose()
    #expect(received.all == Array(0..<count))
  }
}

/// A scheduler the test steps by hand. `runNextNested` makes the next `schedule` call run its action
/// before returning, as a concurrent queue's other thread may.
final class SteppedScheduler: Scheduler, @unchecked Sendable {
  // NB: used from the test's one thread only.
  private var queued: [(action: @Sendable () -> Void, disposable: SerialDisposable)] = []
  var runNextNested = false

  func schedule(_ action: @escaping @Sendable () -> Void) -> any Disposable {
    let disposable = SerialDisposable()
    if runNextNested {
      runNextNested = false
      action()
    } else {
      queued.append((action, disposable))
    }
    return disposable
  }

  func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> any Disposable {
    schedule(action)
  }

  func schedule(
    after delay: Duration, interval: Duration, _ action: @escaping @Sendable () -> Void
  ) -> any Disposable {
    fatalError("not used")
  }

  /// Runs the oldest queued action unless it was cancelled.
  func runOldest() {
    let (action, disposable) = queued.removeFirst()
    if !disposable.isDisposed { action() }
  }

  var queuedCount: Int { queued.count }
}

@Suite struct SignalDeliverOnInterleavingTests {
  /// The race behind a rare hang of the concurrent-queue test: a delivery action schedules the
  /// next one, which runs (on another thread) and schedules a third before the first has stored the
  /// second's disposable. Storing it late must not cancel the third.
  @Test func aLateStoredDisposableDoesNotCancelANewerDeliveryAction() {
    let scheduler = SteppedScheduler()
    let subject = Subject<Int, Never>()
    let received = SignalDeliverOnConcurrencyTests.Received()
    let subscription = subject.deliver(on: scheduler).subscribe(next: { value in
      received.append(value)
      // While delivering 2, the source sends 3: a third action is scheduled.
      if value == 2 { subject.sendNext(3) }
    })
    subject.sendNext(1)  // schedules action A
    subject.sendNext(2)  // queued behind 1
    scheduler.runNextNested = true  // A schedules B, which runs at once and schedules C
    scheduler.runOldest()  // A
    #expect(scheduler.queuedCount == 1)
    scheduler.runOldest()  // C
    subscription.dispose()
    #expect(received.all == [1, 2, 3])
  }
}
