import MarbleTesting
import MarblesOpenCombine
import OpenCombineShim
import Signals

/// A Combine subscriber whose demand the test sets at ticks of its own: it requests `initial` on
/// subscription, then what `request(_:)` asks, and sends what it receives to a Signals subject that
/// a recorder records — so its deliveries are drawn as marbles.
final class DemandRecorder<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
  // NB: touched only on the scheduler's thread, inside its drains and the test body.
  let received = Subject<Input, Failure>()
  private var subscription: (any OpenCombine.Subscription)?
  private let initial: Subscribers.Demand

  init(initial: Subscribers.Demand) {
    self.initial = initial
  }

  func receive(subscription: any OpenCombine.Subscription) {
    // A subscriber takes one subscription, as Combine's rule says; it cancels any other.
    guard self.subscription == nil else { return subscription.cancel() }
    self.subscription = subscription
    subscription.request(initial)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    received.sendNext(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: received.sendCompleted()
    case .failure(let failure): received.sendError(failure)
    }
  }

  func request(_ demand: Subscribers.Demand) {
    subscription?.request(demand)
  }

  func cancel() {
    subscription?.cancel()
  }
}

/// A Combine `Subject` that replays, made of Marbles' own `ReplaySubject`: what Entwine's
/// `share(replay:)` becomes (`multicast { ReplayingSubject(capacity: n) }.autoconnect()`), and the
/// stand-in for Entwine's `ReplaySubject` in its tests.
final class ReplayingSubject<Output: Sendable, Failure: Error>: OpenCombine.Subject,
  @unchecked Sendable
{
  // NB: Signals' `ReplaySubject` is thread-safe; nothing else is stored.
  let replay: Signals.ReplaySubject<Output, Failure>

  init(capacity: Int) {
    replay = Signals.ReplaySubject(capacity: capacity)
  }

  func send(_ value: Output) { replay.sendNext(value) }

  func send(completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: replay.sendCompleted()
    case .failure(let failure): replay.sendError(failure)
    }
  }

  func send(subscription: any OpenCombine.Subscription) {
    subscription.request(.unlimited)
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    replay.publisher.receive(subscriber: subscriber)
  }
}
