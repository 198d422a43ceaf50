import OpenCombine
import Signals

/// Phase c: one `Subject` delivering 1,000 sends to 1,000 subscribers (1M deliveries).
///
/// Every side subscribes its 1,000 receivers, sends 0..<1,000, and returns the sum every receiver
/// saw, which the caller checks; subscribing is part of the timed work on every side.
enum FanOut {
  static let subscribers = 1_000
  static let sends = 1_000
  static let deliveries = subscribers * sends
  /// What every side must return: each receiver sums 0..<1,000.
  static let expectedSum = subscribers * (sends * (sends - 1) / 2)

  /// A Marbles `Subject` with 1,000 `subscribe(next:)` subscribers.
  static func marbles() -> Int {
    let subject = Subject<Int, Never>()
    let counter = Counter()
    var disposables: [any Disposable] = []
    disposables.reserveCapacity(subscribers)
    for _ in 0..<subscribers {
      disposables.append(subject.subscribe(next: { counter.add($0) }))
    }
    for value in 0..<sends { subject.sendNext(value) }
    withExtendedLifetime(disposables) {}
    precondition(counter.value == expectedSum)
    return counter.value
  }

  /// The peer: OpenCombine's `PassthroughSubject` with 1,000 `sink`s.
  static func openCombine() -> Int {
    let subject = PassthroughSubject<Int, Never>()
    let counter = Counter()
    var cancellables: [AnyCancellable] = []
    cancellables.reserveCapacity(subscribers)
    for _ in 0..<subscribers {
      cancellables.append(subject.sink { counter.add($0) })
    }
    for value in 0..<sends { subject.send(value) }
    withExtendedLifetime(cancellables) {}
    precondition(counter.value == expectedSum)
    return counter.value
  }
}
