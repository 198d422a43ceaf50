import Dispatch
import MarbleTesting
import MarblesOpenCombine
import OpenCombineShim
import Signals
import Synchronization
import Testing

/// The bridge from many threads at once (these run under the thread sanitizer in
/// `make test-tsan`): deliveries never overlap, none is lost or doubled, and demand is never
/// exceeded.
@Suite struct BridgeConcurrencyTests {
  /// Counts what it receives and checks that no two deliveries overlap; requests `perValue` more
  /// for each value.
  final class CountingSubscriber: Subscriber, @unchecked Sendable {
    // NB: all state is behind `state`'s lock or atomic.
    let received = Atomic(0)
    let overlaps = Atomic(0)
    let inside = Atomic(0)
    let state = Mutex<Unchecked<any OpenCombine.Subscription>?>(nil)
    let initial: Subscribers.Demand
    let perValue: Subscribers.Demand

    init(initial: Subscribers.Demand, perValue: Subscribers.Demand) {
      self.initial = initial
      self.perValue = perValue
    }

    func receive(subscription: any OpenCombine.Subscription) {
      state.withLock { $0 = Unchecked(subscription) }
      subscription.request(initial)
    }

    func receive(_ input: Int) -> Subscribers.Demand {
      if inside.add(1, ordering: .acquiringAndReleasing).newValue != 1 {
        overlaps.add(1, ordering: .relaxed)
      }
      received.add(1, ordering: .relaxed)
      inside.subtract(1, ordering: .acquiringAndReleasing)
      return perValue
    }

    func receive(completion: Subscribers.Completion<Never>) {}

    func request(_ demand: Subscribers.Demand) {
      state.withLock { $0 }?.value.request(demand)
    }
  }

  @Test func concurrentSendsReachTheSubscriberOneAtATimeAllOfThemConcurrency() {
    let subject = Subject<Int, Never>()
    let subscriber = CountingSubscriber(initial: .unlimited, perValue: .none)
    subject.publisher.subscribe(subscriber)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for value in 0..<5_000 { subject.sendNext(thread * 5_000 + value) }
    }
    #expect(subscriber.received.load(ordering: .relaxed) == 40_000)
    #expect(subscriber.overlaps.load(ordering: .relaxed) == 0)
  }

  @Test func demandFromOtherThreadsIsNeverExceededAndNothingIsLostConcurrency() {
    // A cold source holds what is not requested: 20,000 values, requested one at a time from
    // eight threads at once.
    let source = Signal<Int, Never> { subscriber in
      for value in 0..<20_000 { subscriber.sendNext(value) }
      return nil
    }
    let subscriber = CountingSubscriber(initial: .none, perValue: .none)
    source.publisher.subscribe(subscriber)
    #expect(subscriber.received.load(ordering: .relaxed) == 0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<2_000 { subscriber.request(.max(1)) }
    }
    #expect(subscriber.received.load(ordering: .relaxed) == 16_000)
    #expect(subscriber.overlaps.load(ordering: .relaxed) == 0)
  }
}
