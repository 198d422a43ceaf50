import Signals
import Testing

@Suite("Signal+Multicast")
struct SignalMulticastTests {
  @Test("multicast(_:) relays through the given subject")
  func multicastUsesTheGivenSubject() {
    let probe = Probe<Int, Never>()
    let connection = probe.signal.multicast(ReplaySubject(capacity: 1))
    connection.connect()
    probe.sendNext(1)
    probe.sendNext(2)
    let late = Recorder<Int, Never>()
    connection.signal.subscribe(late)
    #expect(late.values == [2])

    let behavior = Probe<Int, Never>().signal.multicast(BehaviorSubject(value: 0))
    let recorder = Recorder<Int, Never>()
    behavior.signal.subscribe(recorder)
    #expect(recorder.values == [0])
  }

  @Test(
    "RAC: replay() subscribes at call time, exactly once, even with no subscriber",
    .tags(.racSpec, .semantics))
  func racReplaySubscribesAtCallTime() {
    let probe = Probe<Int, Never>()
    let replayed = probe.signal.replay()
    #expect(probe.subscriptionCount == 1)
    probe.sendNext(1)
    probe.sendNext(2)
    let first = Recorder<Int, Never>()
    let second = Recorder<Int, Never>()
    replayed.subscribe(first)
    probe.sendNext(3)
    probe.sendCompleted()
    replayed.subscribe(second)
    #expect(probe.subscriptionCount == 1)
    #expect(first.events == [.next(1), .next(2), .next(3), .completed])
    #expect(second.events == first.events)
  }

  @Test(
    "RAC: replayLast() subscribes at call time and replays only the last value and the terminal",
    .tags(.racSpec, .semantics))
  func racReplayLast() {
    let probe = Probe<Int, Never>()
    let replayed = probe.signal.replayLast()
    #expect(probe.subscriptionCount == 1)
    probe.sendNext(1)
    probe.sendNext(2)
    let live = Recorder<Int, Never>()
    replayed.subscribe(live)
    #expect(live.values == [2])
    probe.sendNext(3)
    probe.sendCompleted()
    let late = Recorder<Int, Never>()
    replayed.subscribe(late)
    #expect(late.events == [.next(3), .completed])
    #expect(live.events == [.next(2), .next(3), .completed])
    #expect(probe.subscriptionCount == 1)
  }

  @Test(
    "RAC: replayLazily() subscribes nothing before the first subscriber, then never again",
    .tags(.racSpec, .semantics))
  func racReplayLazily() {
    let probe = Probe<Int, Never> { subscriber in
      subscriber.sendNext(1)
      subscriber.sendNext(2)
    }
    let replayed = probe.signal.replayLazily()
    #expect(probe.subscriptionCount == 0)
    let first = Recorder<Int, Never>()
    replayed.subscribe(first)
    #expect(probe.subscriptionCount == 1)
    probe.sendNext(3)
    probe.sendCompleted()
    let second = Recorder<Int, Never>()
    replayed.subscribe(second)
    #expect(probe.subscriptionCount == 1)
    #expect(first.events == [.next(1), .next(2), .next(3), .completed])
    #expect(second.events == first.events)
  }

  @Test(
    "Semantics: replayLazily() never disconnects, even when every subscriber leaves",
    .tags(.semantics))
  func replayLazilyNeverDisconnects() {
    let probe = Probe<Int, Never>()
    let replayed = probe.signal.replayLazily()
    let first = replayed.subscribe(Recorder())
    probe.sendNext(1)
    first.dispose()
    #expect(!probe.isDisposed())
    probe.sendNext(2)
    let second = Recorder<Int, Never>()
    replayed.subscribe(second)
    #expect(second.values == [1, 2])
    #expect(probe.subscriptionCount == 1)
  }

  @Test("publish() shares through a plain subject: no replay")
  func publishHasNoReplay() {
    let probe = Probe<Int, Never>()
    let connection = probe.signal.publish()
    connection.connect()
    probe.sendNext(1)
    let recorder = Recorder<Int, Never>()
    connection.signal.subscribe(recorder)
    #expect(recorder.events.isEmpty)
  }
}
