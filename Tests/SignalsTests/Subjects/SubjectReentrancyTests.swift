import Signals
import Testing

/// Sends, subscriptions and disposals made from inside a subject subscriber's callback.
@Suite("Subject re-entrancy", .tags(.reentrancy))
struct SubjectReentrancyTests {
  @Test(
    "A send from inside a callback reaches every subscriber after the current event has reached them all"
  )
  func reentrantSendIsQueuedBehindTheCurrentEvent() {
    let subject = Subject<Int, Never>()
    let log = Shared<[String]>([])
    subject.subscribe(next: { value in
      log.append("A\(value)")
      if value == 1 { subject.sendNext(2) }
    })
    subject.subscribe(next: { value in log.append("B\(value)") })
    subject.sendNext(1)
    subject.sendNext(3)
    #expect(log.value == ["A1", "B1", "A2", "B2", "A3", "B3"])
  }

  @Test("A terminal sent from inside a callback is delivered after the current event to everyone")
  func reentrantCompletion() {
    let subject = Subject<Int, Never>()
    let first = Recorder<Int, Never> { event, _ in
      if event == .next(1) { subject.sendCompleted() }
    }
    let second = Recorder<Int, Never>()
    subject.subscribe(first)
    subject.subscribe(second)
    subject.sendNext(1)
    subject.sendNext(2)
    #expect(first.events == [.next(1), .completed])
    #expect(second.events == [.next(1), .completed])
  }

  @Test("A subscriber added from inside a callback gets later events, not the current one")
  func subscribingFromInsideACallback() {
    let subject = Subject<Int, Never>()
    let newcomer = Recorder<Int, Never>()
    subject.subscribe(next: { value in
      if value == 1 { subject.subscribe(newcomer) }
    })
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendCompleted()
    #expect(newcomer.events == [.next(2), .completed])
  }

  @Test("A subscriber that disposes itself inside its callback receives nothing more")
  func disposingItselfInsideTheCallback() {
    let subject = Subject<Int, Never>()
    let leaving = Recorder<Int, Never> { event, recorder in
      if event == .next(1) { recorder.disposeSubscription() }
    }
    let staying = Recorder<Int, Never>()
    subject.subscribe(leaving)
    subject.subscribe(staying)
    subject.sendNext(1)
    subject.sendNext(2)
    subject.sendCompleted()
    #expect(leaving.events == [.next(1)])
    #expect(staying.events == [.next(1), .next(2), .completed])
  }

  @Test("A subscriber that disposes another subscriber mid-delivery silences it for that event too")
  func disposingAnotherSubscriberMidDelivery() {
    let subject = Subject<Int, Never>()
    let victim = Recorder<Int, Never>()
    let killer = Recorder<Int, Never> { event, _ in
      if event == .next(1) { victim.disposeSubscription() }
    }
    subject.subscribe(killer)
    subject.subscribe(victim)
    subject.sendNext(1)
    #expect(victim.events.isEmpty)
    #expect(killer.events == [.next(1)])
  }

  @Test("Re-entrant sends, subscriptions and disposals on a subject do not deadlock")
  func mixedReentrancy() {
    let subject = Subject<Int, Never>()
    let newcomer = Recorder<Int, Never>()
    let log = Shared<[Int]>([])
    let recorder = Recorder<Int, Never> { event, recorder in
      guard let value = event.value else { return }
      log.append(value)
      if value < 5 { subject.sendNext(value + 1) }
      if value == 2 { subject.subscribe(newcomer) }
      if value == 4 { recorder.disposeSubscription() }
    }
    subject.subscribe(recorder)
    subject.sendNext(1)
    #expect(log.value == [1, 2, 3, 4])
    #expect(newcomer.values == [3, 4, 5])
  }
}
