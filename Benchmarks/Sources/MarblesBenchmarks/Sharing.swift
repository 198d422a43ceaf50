import MarbleTesting
import OpenCombine
import Signals

/// Phase e: a cold source of 10,000 values shared by 100 subscribers, each of which records every
/// value (1M recorded deliveries).
enum Sharing {
  static let values = 10_000
  static let subscribers = 100
  static let deliveries = values * subscribers

  /// The cold script: values 0..<10,000 at ticks 1...10,000, then completion. Nothing at tick 0,
  /// so all 100 subscribers (recorded at tick 0) have joined before the first value.
  static let script: [Recorded<Event<Int, TestError>>] =
    (0..<values).map { .next($0 + 1, $0) } + [.completed(values + 1)]

  /// Marbles: a cold test signal through `multicast(ReplaySubject(capacity: 1))` + `autoconnect()`
  /// (`replayLast()`-style sharing that connects on the first subscriber), recorded by 100
  /// `TestSubscriber`s subscribed at tick 0, then `scheduler.run()`.
  static func marbles() -> Int {
    let scheduler = TestScheduler()
    let source = try! scheduler.cold(script)
    let shared = source.multicast(ReplaySubject(capacity: 1)).autoconnect()
    let recorders = (0..<subscribers).map { _ in scheduler.record(shared, subscribeAt: 0) }
    let result = scheduler.run()
    precondition(result.isComplete && source.subscriptions.count == 1)
    var total = 0
    for recorder in recorders {
      let events = recorder.events
      precondition(events.count == values + 1 && recorder.isCompleted)
      total += events.count - 1
    }
    return total
  }

  /// A `(tick, value)` log, what a `TestSubscriber` keeps, for the peer and the baseline.
  final class Log {
    var entries: [(time: Int, value: Int)] = []
    var isCompleted = false
  }

  /// The peer: OpenCombine's `share()` with 100 `sink`s that log `(tick, value)` pairs.
  ///
  /// `share()` is `multicast(PassthroughSubject)` + `autoconnect()`: the first sink connects it.
  /// Over a synchronous publisher such as `Publishers.Sequence`, that first sink would receive all
  /// 10,000 values and the completion inside its own `sink` call, and the other 99 would get only
  /// the completion — a hundredth of the work. So the upstream is a `PassthroughSubject`: all 100
  /// sinks subscribe first, then the loop drives the 10,000 values and the completion through it,
  /// as the `TestScheduler` drives the cold script. The loop index stands for the virtual tick.
  static func openCombine() -> Int {
    let upstream = PassthroughSubject<Int, Never>()
    let shared = upstream.share()
    let logs = (0..<subscribers).map { _ in Log() }
    var time = 0
    var cancellables: [AnyCancellable] = []
    cancellables.reserveCapacity(subscribers)
    for log in logs {
      cancellables.append(
        shared.sink(
          receiveCompletion: { _ in log.isCompleted = true },
          receiveValue: { log.entries.append((time, $0)) }))
    }
    for value in 0..<values {
      time = value + 1
      upstream.send(value)
    }
    upstream.send(completion: .finished)
    withExtendedLifetime(cancellables) {}
    var total = 0
    for log in logs {
      precondition(log.entries.count == values && log.isCompleted)
      total += log.entries.count
    }
    return total
  }
}
