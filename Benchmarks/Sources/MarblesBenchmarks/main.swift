import Foundation
import MarbleTesting
import Signals

// Marbles benchmarks: each phase is run 5 times and the median printed as
//   phase  seconds  ns/item  ratio-to-baseline
// next to a bare baseline measured in the same run. Release build only (`make bench`).

print("Marbles benchmarks — median of \(Harness.repetitions) runs, release build")
print(String(repeating: "-", count: 86))

let million = 1_000_000

/// Phase a: a TestScheduler draining a million actions.
enum Times { case scrambled, ascending, same }
func schedulerPhase(_ times: Times) -> Int {
  let scheduler = TestScheduler()
  let counter = Counter()
  for index in 0..<million {
    let time =
      switch times {
      case .scrambled: (index &* 7919) % million
      case .ascending: index
      case .same: 0
      }
    scheduler.schedule(at: time) { counter.increment() }
  }
  let result = scheduler.run()
  precondition(result.isComplete && counter.value == million)
  return result.actionsRun
}

/// A counter the scheduled actions bump (they are `@Sendable`).
final class Counter: @unchecked Sendable {
  // NB: only ever touched on the benchmark's one thread.
  var value = 0
  func increment() { value &+= 1 }
}

/// `make bench FILTER=text` (or `BENCH_FILTER=text`) runs only the phases whose name contains it.
let filter = ProcessInfo.processInfo.environment["BENCH_FILTER"] ?? ""
func measure(_ name: String, items: Int, baseline: Double? = nil, _ body: () -> Int) -> Double {
  guard filter.isEmpty || name.contains(filter) else { return .nan }
  let seconds = Harness.median(body)
  let measurement = Harness.Measurement(
    name: name, seconds: seconds, items: items, baseline: baseline)
  print(measurement.line)
  return seconds
}

let heapAscending = measure("a. baseline heap, 1M at ascending times", items: million) {
  Baseline.heap(count: million, times: .ascending)
}
_ = measure("a. TestScheduler, 1M at ascending times", items: million, baseline: heapAscending) {
  schedulerPhase(.ascending)
}
let heapScrambled = measure("a. baseline heap, 1M at scrambled times", items: million) {
  Baseline.heap(count: million, times: .scrambled)
}
_ = measure("a. TestScheduler, 1M at scrambled times", items: million, baseline: heapScrambled) {
  schedulerPhase(.scrambled)
}
let heapSame = measure("a. baseline heap, 1M at one time", items: million) {
  Baseline.heap(count: million, times: .same)
}
_ = measure("a. TestScheduler, 1M at one time", items: million, baseline: heapSame) {
  schedulerPhase(.same)
}

let hundredThousand = 100_000
let closures = measure("b. baseline array of closures, 100k", items: hundredThousand) {
  Baseline.closures(count: hundredThousand)
}
let hotEvents: [Recorded<Event<Int, TestError>>] = (0..<hundredThousand).map { .next($0 + 1, $0) }
_ = measure("b. hot test signal, 100k events recorded", items: hundredThousand, baseline: closures)
{
  let scheduler = TestScheduler()
  let hot = try! scheduler.hot(hotEvents)
  let subscriber = scheduler.record(hot)
  scheduler.run()
  precondition(subscriber.events.count == hundredThousand)
  return subscriber.events.count
}

let eventSize = MemoryLayout<Event<Int, TestError>>.stride
let recordedSize = MemoryLayout<Recorded<Event<Int, TestError>>>.stride
print(
  "b. memory: a recorded event takes \(recordedSize) bytes for an event of \(eventSize) bytes "
    + String(format: "(%.2fx)", Double(recordedSize) / Double(eventSize)))

print(String(repeating: "-", count: 86))
if let peak = Harness.peakMemoryKiB() {
  print("peak memory: \(peak / 1024) MiB")
}
