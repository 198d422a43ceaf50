import CombineSchedulers
import Dispatch
import MarbleTesting
import MarblesOpenCombine
import OpenCombine
import OpenCombineDispatch

/// Phase h: Combine on virtual time, against combine-schedulers 1.2.2's `TestScheduler`
/// (`DispatchQueue.test`) on OpenCombine. Both sides run the same code on a scheduler typed for
/// `DispatchQueue`: Marbles' is `scheduler.combine(for: DispatchQueue.self)`.
enum CombineSchedulersPhase {
  /// `n` one-shot `schedule(after:)` actions at scrambled times (i × 7919 mod n milliseconds),
  /// then `run()`. Returns how many ran.
  static func oneShots<S: OpenCombine.Scheduler>(
    _ n: Int, on scheduler: S, run: () -> Void
  ) -> Int where S.SchedulerTimeType == DispatchQueue.SchedulerTimeType {
    let counter = Counter()
    let now = scheduler.now
    for index in 0..<n {
      let time = (index &* 7919) % n
      scheduler.schedule(after: now.advanced(by: .milliseconds(time))) { counter.increment() }
    }
    run()
    precondition(counter.value == n)
    return counter.value
  }

  /// `n` values sent 3 ms apart through `debounce(for: 2 ms)`: each passes 2 ms after it was
  /// sent. Returns how many passed.
  static func debounce<S: OpenCombine.Scheduler>(
    _ n: Int, on scheduler: S, run: () -> Void
  ) -> Int where S.SchedulerTimeType == DispatchQueue.SchedulerTimeType {
    let subject = PassthroughSubject<Int, Never>()
    let counter = Counter()
    let cancellable = subject.debounce(for: .milliseconds(2), scheduler: scheduler)
      .sink { _ in counter.increment() }
    let now = scheduler.now
    for index in 0..<n {
      scheduler.schedule(after: now.advanced(by: .milliseconds(3 * index))) { subject.send(index) }
    }
    run()
    cancellable.cancel()
    precondition(counter.value == n)
    return counter.value
  }

  static func marblesOneShots(_ n: Int) -> Int {
    let scheduler = TestScheduler()
    return oneShots(n, on: scheduler.combine(for: DispatchQueue.self)) { scheduler.run() }
  }

  static func theirsOneShots(_ n: Int) -> Int {
    let scheduler = DispatchQueue.test
    return oneShots(n, on: scheduler) { scheduler.run() }
  }

  static func marblesDebounce(_ n: Int) -> Int {
    let scheduler = TestScheduler()
    return debounce(n, on: scheduler.combine(for: DispatchQueue.self)) { scheduler.run() }
  }

  static func theirsDebounce(_ n: Int) -> Int {
    let scheduler = DispatchQueue.test
    return debounce(n, on: scheduler) { scheduler.run() }
  }
}
