import MarbleTesting
import Signals
import Testing

/// `signal.values`, `Signal(sequence)` and `record(sequence)` on virtual time.
@Suite struct SignalValuesTests {
  @Test func aTestSignalIteratedAsValuesLogsItsSubscription() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a--b|")
    let recorder = scheduler.record(source.values.map { $0.uppercased() }, subscribeAt: 2)
    scheduler.run()
    #expect(recorder.events == [.next(3, "A"), .next(6, "B"), .completed(7)])
    #expect(source.subscriptions == [Subscription(2, 7)])
  }

  @Test func anErrorIsThrownAfterTheValuesBeforeIt() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("(ab#)", error: TestError("boom"))
    let recorder = scheduler.record(source.values)
    scheduler.run()
    #expect(recorder.events == [.next(0, "a"), .next(0, "b"), .error(0, TestError("boom"))])
  }

  @Test func valuesWaitInTheBufferUntilAskedFor() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a-b-c-|")
    let log = Log<String>()
    scheduler.task {
      var iterator = source.values.makeAsyncIterator()
      _ = try await iterator.next()
      try await scheduler.clock.sleep(until: .init(offset: .milliseconds(6)))
      while let value = try await iterator.next() { log.stamp(value, scheduler) }
      log.stamp("end", scheduler)
    }
    scheduler.run()
    #expect(log.all == ["b@6", "c@6", "end@7"])
  }

  @Test func disposingARecordingCancelsTheIterationAndTheSubscriptionAtThatTick() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-c-|")
    let recorder = scheduler.record(source.values, disposeAt: 4)
    scheduler.run()
    #expect(recorder.events == [.next(1, "a"), .next(3, "b")])
    #expect(source.subscriptions == [Subscription(0, 4)])
    #expect(!scheduler.hasScheduledWork)
  }

  @Test func releasingTheIteratorDisposesTheSubscription() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a-b-c-|")
    scheduler.task {
      var iterator = source.values.makeAsyncIterator()
      _ = try await iterator.next()
    }
    scheduler.run()
    #expect(source.subscriptions == [Subscription(0, 1)])
  }

  @Test func eachIteratorIsASubscriptionOfItsOwn() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a|")
    let values = source.values
    _ = scheduler.record(values, subscribeAt: 0)
    _ = scheduler.record(values, subscribeAt: 3)
    scheduler.run()
    #expect(source.subscriptions == [Subscription(0, 2), Subscription(3, 5)])
  }

  @Test func aNeverFailingSignalIteratesWithoutTry() async {
    let numbers = Signal<Int, Never> { subscriber in
      for number in 1...3 { subscriber.sendNext(number) }
      subscriber.sendCompleted()
      return nil
    }
    var sum = 0
    for await number in numbers.values { sum += number }
    #expect(sum == 6)
  }

  @Test func anAsyncSequenceAsASignalIteratesOncePerSubscriptionAtItsOwnTick() throws {
    let scheduler = TestScheduler()
    // AsyncStream is single-use: each subscription gets a fresh one.
    let signal = Signal<Int, Never>.deferred {
      Signal(
        AsyncStream<Int> { continuation in
          for index in 1...3 { continuation.yield(index) }
          continuation.finish()
        })
    }
    let early = scheduler.record(signal, subscribeAt: 1)
    let late = scheduler.record(signal, subscribeAt: 4)
    scheduler.run()
    #expect(early.events == [.next(1, 1), .next(1, 2), .next(1, 3), .completed(1)])
    #expect(late.events == [.next(4, 1), .next(4, 2), .next(4, 3), .completed(4)])
  }

  @Test func disposingAnAsyncSequenceSignalCancelsItsTask() throws {
    let scheduler = TestScheduler()
    let clock = scheduler.clock
    let timer = AsyncStream<Int>(unfolding: {
      try? await clock.sleep(for: .milliseconds(2))
      return Task.isCancelled ? nil : 7
    })
    let recorder = scheduler.record(Signal(timer), disposeAt: 5)
    scheduler.run()
    #expect(recorder.events == [.next(2, 7), .next(4, 7)])
    #expect(!scheduler.hasScheduledWork)
    #expect(scheduler.now == 5)
  }
}
