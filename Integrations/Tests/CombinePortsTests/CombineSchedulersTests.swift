import CombineSchedulers
import ConcurrencyExtras
import Dispatch
import MarbleTesting
import MarblesOpenCombine
import OpenCombineShim
import Testing

/// pointfreeco/combine-schedulers 1.2.2, `Tests/CombineSchedulersTests/TestSchedulerTests.swift`
/// (`CombineSchedulerTests`): every test, each on a Marbles `TestScheduler` standing in for
/// `DispatchQueue` (`scheduler.combine(for: DispatchQueue.self)`), translated by the rules in
/// `Integrations/README.md` ("Porting combine-schedulers' TestScheduler tests"). Their publishers,
/// `Publishers.Timer`, `sleep(for:)` and `timer(interval:)` are theirs, run on our scheduler.
///
/// A file that imports CombineSchedulers and MarbleTesting sees two `TestScheduler`s: ours is
/// spelled `MarbleTesting.TestScheduler` here.
@Suite struct CombineSchedulersTestSchedulerTests {
  /// `DispatchQueue.test`
  let marbles = MarbleTesting.TestScheduler()
  var scheduler:
    CombineTestScheduler<DispatchQueue.SchedulerTimeType, DispatchQueue.SchedulerOptions>
  {
    marbles.combine(for: DispatchQueue.self)
  }

  /// `testAdvanceTo`
  @Test func advanceTo() {
    var cancellables: Set<AnyCancellable> = []
    let start = scheduler.now

    var value: Int?
    Just(1)
      .delay(for: 1, scheduler: scheduler)
      .sink { value = $0 }
      .store(in: &cancellables)

    #expect(value == nil)
    marbles.advance(to: marbles.ticks(.milliseconds(250)))
    #expect(value == nil)
    marbles.advance(to: marbles.ticks(.milliseconds(500)))
    #expect(value == nil)
    marbles.advance(to: marbles.ticks(.milliseconds(750)))
    #expect(value == nil)
    marbles.advance(to: marbles.ticks(.milliseconds(1000)))
    #expect(value == 1)
    #expect(scheduler.now == start.advanced(by: .milliseconds(1000)))
  }

  /// `testRunScheduler`
  @Test func runScheduler() {
    var cancellables: Set<AnyCancellable> = []

    var value: Int?
    Just(1)
      .delay(for: 1_000_000_000, scheduler: scheduler)
      .sink { value = $0 }
      .store(in: &cancellables)

    #expect(value == nil)
    marbles.advance(by: .seconds(1_000_000))
    #expect(value == nil)
    marbles.run()
    #expect(value == 1)
  }

  /// `testDelay0Advance`
  @Test func delay0Advance() {
    var cancellables: Set<AnyCancellable> = []

    var value: Int?
    Just(1)
      .delay(for: 0, scheduler: scheduler)
      .sink { value = $0 }
      .store(in: &cancellables)

    #expect(value == nil)
    marbles.advance(by: 0)
    #expect(value == 1)
  }

  /// `testSubscribeOnAdvance`
  @Test func subscribeOnAdvance() {
    var cancellables: Set<AnyCancellable> = []

    var value: Int?
    Just(1)
      .subscribe(on: scheduler)
      .sink { value = $0 }
      .store(in: &cancellables)

    #expect(value == nil)
    marbles.advance(by: 0)
    #expect(value == 1)
  }

  /// `testReceiveOnAdvance`
  @Test func receiveOnAdvance() {
    var cancellables: Set<AnyCancellable> = []

    var value: Int?
    Just(1)
      .receive(on: scheduler)
      .sink { value = $0 }
      .store(in: &cancellables)

    #expect(value == nil)
    marbles.advance(by: 0)
    #expect(value == 1)
  }

  /// `testDispatchQueueDefaults`
  @Test func dispatchQueueDefaults() {
    marbles.advance(by: .nanoseconds(0))
    // Not 0: that means "now" to DispatchTime's initializer.
    #expect(scheduler.now == .init(DispatchTime(uptimeNanoseconds: 1)))
  }

  /// `testTwoIntervalOrdering`
  @Test func twoIntervalOrdering() {
    var cancellables: Set<AnyCancellable> = []
    let testScheduler = scheduler

    var values: [Int] = []

    testScheduler.schedule(after: testScheduler.now, interval: 2) { values.append(1) }
      .store(in: &cancellables)

    testScheduler.schedule(after: testScheduler.now, interval: 1) { values.append(42) }
      .store(in: &cancellables)

    #expect(values == [])
    marbles.advance(by: 0)
    #expect(values == [1, 42])
    marbles.advance(by: .seconds(2))
    #expect(values == [1, 42, 42, 1, 42])
  }

  /// `testAdvanceToFarFuture` (`withMainSerialExecutor` is dropped: the scheduler drives the
  /// test's work)
  @Test func advanceToFarFuture() async {
    var cancellables: Set<AnyCancellable> = []
    let testScheduler = scheduler

    var tickCount = 0
    Publishers.Timer(every: .seconds(1), scheduler: testScheduler)
      .autoconnect()
      .sink { _ in tickCount += 1 }
      .store(in: &cancellables)

    #expect(tickCount == 0)
    marbles.advance(by: .seconds(1))
    #expect(tickCount == 1)
    marbles.advance(by: .seconds(1))
    #expect(tickCount == 2)
    marbles.advance(by: .seconds(1_000))
    #expect(tickCount == 1_002)
  }

  /// `testDelay0Advance_Async`
  @Test func delay0AdvanceAsync() async {
    var cancellables: Set<AnyCancellable> = []

    var value: Int?
    Just(1)
      .delay(for: 0, scheduler: scheduler)
      .sink { value = $0 }
      .store(in: &cancellables)

    #expect(value == nil)
    marbles.advance(by: 0)
    #expect(value == 1)
  }

  /// `testAsyncSleep` (their `Task { }` is kept; the scheduler drives it)
  @Test func asyncSleep() async throws {
    let testScheduler = scheduler

    let task = Task {
      try await testScheduler.sleep(for: .seconds(1))
    }

    marbles.advance(by: .seconds(1))
    try await task.value
  }

  /// `testAsyncTimer`
  @Test func asyncTimer() async throws {
    let testScheduler = scheduler

    let task = Task {
      await testScheduler.timer(interval: .seconds(1))
        .prefix(10)
        .reduce(into: 0) { @Sendable accum, _ in accum += 1 }
    }

    marbles.advance(by: .seconds(10))
    let count = await task.value
    #expect(count == 10)
  }

  /// `testAsyncRun`
  @Test func asyncRun() async throws {
    let testScheduler = scheduler

    let task = Task {
      await testScheduler.timer(interval: .seconds(1))
        .prefix(10)
        .reduce(into: 0) { @Sendable accum, _ in accum += 1 }
    }

    marbles.run()
    let count = await task.value
    #expect(count == 10)
  }

  /// `testNowIsAdvanced`
  @Test func nowIsAdvanced() {
    let testScheduler = scheduler
    let start = testScheduler.now

    marbles.advance(by: .seconds(1))
    #expect(testScheduler.now == start.advanced(by: .seconds(1)))

    marbles.advance(by: 0)
    #expect(testScheduler.now == start.advanced(by: .seconds(1)))

    marbles.advance(by: .seconds(1))
    #expect(testScheduler.now == start.advanced(by: .seconds(2)))
  }

  /// Not theirs: code typed for `AnySchedulerOf<DispatchQueue>` runs on the stand-in unchanged.
  @Test func anErasedDispatchQueueStandIn() throws {
    let main: AnySchedulerOf<DispatchQueue> = scheduler.eraseToAnyScheduler()
    let input = try marbles.hot("-a-b-----|")
    let recorder = marbles.record(input.publisher.delay(for: .milliseconds(3), scheduler: main))
    marbles.run()
    #expect(
      recorder.events == [.next(4, "a"), .next(6, "b"), .completed(12)],
      "delay moves the end too, as Combine's does")
    #expect(main.now == .init(DispatchTime(uptimeNanoseconds: 12_000_001)))
  }
}
