import Signals
import Testing

@Suite("Signal")
struct SignalTests {
  // MARK: Synchronous subscription

  @Test(
    "Semantics: events sent inside the subscribe closure arrive before subscribe returns",
    .tags(.semantics))
  func synchronousSubscription() {
    let signal = Signal<Int, TestFailure> { subscriber in
      subscriber.sendNext(1)
      subscriber.sendNext(2)
      subscriber.sendCompleted()
      return nil
    }
    let recorder = Recorder<Int, TestFailure>()
    signal.subscribe(recorder)
    #expect(recorder.events == [.next(1), .next(2), .completed])
  }

  @Test("Semantics: the subscribe closure runs on the subscribing thread, once per subscription")
  func coldClosureRunsOncePerSubscription() {
    let runs = Counter()
    let signal = Signal<Int, Never> { subscriber in
      runs.increment()
      subscriber.sendNext(runs.value)
      return nil
    }
    #expect(runs.value == 0)
    let first = Recorder<Int, Never>()
    let second = Recorder<Int, Never>()
    signal.subscribe(first)
    #expect(runs.value == 1)
    signal.subscribe(second)
    #expect(runs.value == 2)
    #expect(first.values == [1])
    #expect(second.values == [2])
  }

  @Test("The subscriber is told its disposable before the first event")
  func didSubscribeComesFirst() {
    let sawSubscription = Shared<Bool?>(nil)
    let recorder = Recorder<Int, Never> { _, recorder in
      if sawSubscription.value == nil { sawSubscription.value = recorder.subscription != nil }
    }
    let disposable = Signal<Int, Never>.just(1).subscribe(recorder)
    #expect(sawSubscription.value == true)
    #expect(isSameObject(recorder.subscription, disposable))
  }

  // MARK: Grammar

  @Test(
    "Semantics: nothing reaches the subscriber after completed, in a raw Signal", .tags(.semantics))
  func eventsAfterCompletedAreDropped() {
    let signal = Signal<Int, TestFailure> { subscriber in
      subscriber.sendNext(1)
      subscriber.sendCompleted()
      subscriber.sendNext(2)
      subscriber.sendError(TestFailure())
      subscriber.sendCompleted()
      return nil
    }
    let recorder = Recorder<Int, TestFailure>()
    signal.subscribe(recorder)
    #expect(recorder.events == [.next(1), .completed])
  }

  @Test(
    "Semantics: nothing reaches the subscriber after an error, in a raw Signal", .tags(.semantics))
  func eventsAfterErrorAreDropped() {
    let signal = Signal<Int, TestFailure> { subscriber in
      subscriber.sendError(TestFailure(message: "first"))
      subscriber.sendNext(1)
      subscriber.sendError(TestFailure(message: "second"))
      subscriber.sendCompleted()
      return nil
    }
    let recorder = Recorder<Int, TestFailure>()
    signal.subscribe(recorder)
    #expect(recorder.events == [.error(TestFailure(message: "first"))])
  }

  @Test("Semantics: sends after a terminal are dropped when they come later, asynchronously")
  func lateSendsAfterTerminalAreDropped() {
    let probe = Probe<Int, TestFailure>()
    let recorder = Recorder<Int, TestFailure>()
    probe.signal.subscribe(recorder)
    probe.sendNext(1)
    probe.sendCompleted()
    probe.sendNext(2)
    probe.sendError(TestFailure())
    #expect(recorder.events == [.next(1), .completed])
  }

  @Test("A terminal event disposes what the subscribe closure returned")
  func terminationDisposesTheClosuresDisposable() {
    let probe = Probe<Int, Never>()
    probe.signal.subscribe(Recorder<Int, Never>())
    #expect(!probe.isDisposed())
    probe.sendCompleted()
    #expect(probe.isDisposed())
  }

  @Test("A disposable returned after a synchronous terminal event is disposed at once")
  func disposableReturnedAfterSynchronousCompletionIsDisposed() {
    let cleanup = AnyDisposable()
    let signal = Signal<Int, Never> { subscriber in
      subscriber.sendCompleted()
      return cleanup
    }
    signal.subscribe(Recorder<Int, Never>())
    #expect(cleanup.isDisposed)
  }

  // MARK: Disposal

  @Test("Semantics: disposing a subscription silences it at once", .tags(.semantics))
  func disposingSilences() {
    let probe = Probe<Int, Never>()
    let recorder = Recorder<Int, Never>()
    let subscription = probe.signal.subscribe(recorder)
    probe.sendNext(1)
    subscription.dispose()
    probe.sendNext(2)
    probe.sendCompleted()
    #expect(recorder.events == [.next(1)])
    #expect(subscription.isDisposed)
    #expect(probe.isDisposed())
  }

  @Test(
    "Semantics: a disposal from inside the subscriber's own callback silences it at once",
    .tags(.semantics))
  func disposingFromInsideTheCallbackSilences() {
    let signal = Signal<Int, Never> { subscriber in
      for value in 1...5 { subscriber.sendNext(value) }
      subscriber.sendCompleted()
      return nil
    }
    let recorder = Recorder<Int, Never> { event, recorder in
      if event == .next(2) { recorder.disposeSubscription() }
    }
    let subscription = signal.subscribe(recorder)
    #expect(recorder.events == [.next(1), .next(2)])
    #expect(subscription.isDisposed)
  }

  @Test("Semantics: events queued behind a callback are dropped when that callback disposes")
  func queuedEventsAreDroppedOnDisposalFromInsideTheCallback() {
    let probe = Probe<Int, Never>()
    // The callback sends re-entrantly (queued behind itself), then disposes: the queued event must
    // never arrive.
    let recorder = Recorder<Int, Never> { event, recorder in
      if event == .next(1) {
        probe.sendNext(2)
        recorder.disposeSubscription()
      }
    }
    probe.signal.subscribe(recorder)
    probe.sendNext(1)
    probe.sendNext(3)
    #expect(recorder.events == [.next(1)])
  }

  @Test("An event sent from inside the downstream's callback arrives after that callback returns")
  func reentrantSendIsDeliveredAfterTheCallback() {
    let probe = Probe<Int, Never>()
    let log = Shared<[String]>([])
    let recorder = Recorder<Int, Never> { event, _ in
      log.append("begin \(event)")
      if event == .next(1) { probe.sendNext(2) }
      log.append("end \(event)")
    }
    probe.signal.subscribe(recorder)
    probe.sendNext(1)
    #expect(log.value == ["begin next(1)", "end next(1)", "begin next(2)", "end next(2)"])
  }

  // MARK: Factories

  @Test("Signal.just sends its value, then completes")
  func just() {
    let recorder = Recorder<String, Never>()
    Signal<String, Never>.just("a").subscribe(recorder)
    #expect(recorder.events == [.next("a"), .completed])
  }

  @Test("Signal.empty completes at once")
  func empty() {
    let recorder = Recorder<Int, Never>()
    Signal<Int, Never>.empty.subscribe(recorder)
    #expect(recorder.events == [.completed])
  }

  @Test("Signal.never sends nothing")
  func never() {
    let recorder = Recorder<Int, Never>()
    let subscription = Signal<Int, Never>.never.subscribe(recorder)
    #expect(recorder.events.isEmpty)
    #expect(!subscription.isDisposed)
    subscription.dispose()
    #expect(subscription.isDisposed)
  }

  @Test("Signal.error fails at once")
  func error() {
    let recorder = Recorder<Int, TestFailure>()
    Signal<Int, TestFailure>.error(TestFailure()).subscribe(recorder)
    #expect(recorder.events == [.error(TestFailure())])
  }

  @Test("Signal.from sends each element, then completes")
  func from() {
    let recorder = Recorder<Int, Never>()
    Signal<Int, Never>.from([1, 2, 3]).subscribe(recorder)
    #expect(recorder.events == [.next(1), .next(2), .next(3), .completed])
    let empty = Recorder<Int, Never>()
    Signal<Int, Never>.from([]).subscribe(empty)
    #expect(empty.events == [.completed])
  }

  @Test(
    "Semantics: deferred runs its closure once per subscription, never before", .tags(.semantics))
  func deferredRunsPerSubscription() {
    let runs = Counter()
    let signal = Signal<Int, Never>.deferred {
      let run = runs.increment()
      return .just(run)
    }
    #expect(runs.value == 0)
    let first = Recorder<Int, Never>()
    let second = Recorder<Int, Never>()
    signal.subscribe(first)
    signal.subscribe(second)
    #expect(runs.value == 2)
    #expect(first.events == [.next(1), .completed])
    #expect(second.events == [.next(2), .completed])
  }

  @Test("Disposing a deferred subscription disposes the inner one")
  func deferredDisposalReachesTheInnerSignal() {
    let probe = Probe<Int, Never>()
    let subscription = Signal<Int, Never>.deferred { probe.signal }.subscribe(Recorder())
    #expect(!probe.isDisposed())
    subscription.dispose()
    #expect(probe.isDisposed())
  }

  @Test(
    "A subscribe closure that hands its subscriber to another signal ends that subscription with its own (RAC's passthrough subscriber)"
  )
  func forwardedSubscriptionIsDisposedWithTheOuterOne() {
    let probe = Probe<Int, Never>()
    let inner = probe.signal
    let outer = Signal<Int, Never> { subscriber in
      inner.subscribe(subscriber)  // the disposable is dropped, as in many hand-written signals
      return nil
    }
    let recorder = Recorder<Int, Never>()
    let subscription = outer.subscribe(recorder)
    probe.sendNext(1)
    #expect(!probe.isDisposed())
    subscription.dispose()
    #expect(probe.isDisposed())
    probe.sendNext(2)
    #expect(recorder.events == [.next(1)])
  }

  @Test("A subscriber handed on after its subscription ended disposes the new subscription at once")
  func forwardingAfterTheEndDisposesAtOnce() {
    let probe = Probe<Int, Never>()
    let outer = Signal<Int, Never> { subscriber in
      subscriber.sendCompleted()
      probe.signal.subscribe(subscriber)
      return nil
    }
    let recorder = Recorder<Int, Never>()
    outer.subscribe(recorder)
    #expect(probe.subscriptionCount == 1)
    #expect(probe.isDisposed())
    #expect(recorder.events == [.completed])
  }
}
