import Signals

/// Phase d: an unlimited `ReplaySubject` that is sent 100,000 values, then subscribed by 100 late
/// subscribers, each of which receives all of them during `subscribe` (10M deliveries).
enum Replay {
  static let sends = 100_000
  static let lateSubscribers = 100
  static let deliveries = sends * lateSubscribers
  /// What every side must return: each late subscriber sums 0..<100,000.
  static let expectedSum = lateSubscribers * (sends * (sends - 1) / 2)

  /// A Marbles `ReplaySubject()` (unlimited capacity).
  static func marbles() -> Int {
    let subject = ReplaySubject<Int, Never>()
    for value in 0..<sends { subject.sendNext(value) }
    let counter = Counter()
    var disposables: [any Disposable] = []
    disposables.reserveCapacity(lateSubscribers)
    for _ in 0..<lateSubscribers {
      disposables.append(subject.subscribe(next: { counter.add($0) }))
    }
    withExtendedLifetime(disposables) {}
    precondition(counter.value == expectedSum)
    return counter.value
  }
}
