import Foundation
import MarbleTesting
import Signals
import Synchronization

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
  func add(_ amount: Int) { value &+= amount }
}

/// `make bench FILTER=text` (or `BENCH_FILTER=text`) runs only the phases whose name contains it.
let filter = ProcessInfo.processInfo.environment["BENCH_FILTER"] ?? ""
func isSelected(_ name: String) -> Bool { filter.isEmpty || name.contains(filter) }
func measure(_ name: String, items: Int, baseline: Double? = nil, _ body: () -> Int) -> Double {
  guard isSelected(name) else { return .nan }
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
if isSelected("b. memory") {
  // How much more heap a run keeps when a recorder is subscribed than when nobody is (running
  // frees the scheduled actions either way), measured by malloc itself, per event.
  func heapKept(recording: Bool) -> Int {
    let scheduler = TestScheduler()
    let hot = try! scheduler.hot(hotEvents)
    let before = Harness.heapInUse()
    let subscriber = recording ? scheduler.record(hot) : nil
    scheduler.run()
    let kept = Harness.heapInUse() - before
    precondition(subscriber.map { $0.values.count == hundredThousand } ?? true)
    return kept
  }
  let perEvent =
    Double(heapKept(recording: true) - heapKept(recording: false)) / Double(hundredThousand)
  print(
    "b. memory: a recorded event takes "
      + String(
        format: "%.1f bytes of heap for an event of %d bytes (%.2fx)", perEvent, eventSize,
        perEvent / Double(eventSize)))
}

/// Prints how many times faster the Marbles side is than the peer (`120x` is 120 times faster).
func speedup(_ name: String, _ marbles: Double, versus peer: Double) {
  guard !marbles.isNaN, !peer.isNaN else { return }
  print(Harness.comparison(name, ratio: peer / marbles))
}

/// ``measure(_:items:baseline:_:)`` for one run only (a peer too slow to run five times).
func measureOnce(_ name: String, items: Int, _ body: () -> Int) -> Double {
  guard isSelected(name) else { return .nan }
  let start = DispatchTime.now().uptimeNanoseconds
  Harness.consume(body())
  let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  print(
    Harness.Measurement(name: name + " (1 run)", seconds: seconds, items: items, baseline: nil).line
  )
  return seconds
}

/// Prints how many times slower the Marbles side is than the peer; skipped if either was filtered
/// out.
func compare(_ name: String, _ marbles: Double, versus peer: Double) {
  guard !marbles.isNaN, !peer.isNaN else { return }
  print(Harness.comparison(name, ratio: marbles / peer))
}

// Phase c: Subject fan-out. Each line's ratio is against the bare closure array; the `vs` line
// after them divides the Marbles time by the OpenCombine time.
let fanOutBaseline = measure("c. baseline 1k closures called 1k times", items: FanOut.deliveries) {
  Baseline.fanOut(receivers: FanOut.subscribers, sends: FanOut.sends)
}
let fanOutMarbles = measure(
  "c. Subject, 1k subscribers x 1k sends", items: FanOut.deliveries, baseline: fanOutBaseline
) { FanOut.marbles() }
let fanOutOpenCombine = measure(
  "c. OpenCombine PassthroughSubject, 1k sinks", items: FanOut.deliveries, baseline: fanOutBaseline
) { FanOut.openCombine() }
compare("c. Subject vs OpenCombine", fanOutMarbles, versus: fanOutOpenCombine)

// Phase d: ReplaySubject replaying 100k values to 100 late subscribers.
let replayBaseline = measure("d. baseline 100k array, iterated 100 times", items: Replay.deliveries)
{ Baseline.replay(sends: Replay.sends, lateSubscribers: Replay.lateSubscribers) }
_ = measure(
  "d. ReplaySubject, 100k sends, 100 late subs", items: Replay.deliveries, baseline: replayBaseline
) { Replay.marbles() }

// Phase e: a cold test signal shared replayLast-style by 100 recorders. Ratios as in phase c.
let sharingBaseline = measure("e. baseline 100 logs x 10k (tick, value)", items: Sharing.deliveries)
{ Baseline.recorders(subscribers: Sharing.subscribers, values: Sharing.values) }
let sharingMarbles = measure(
  "e. cold 10k, multicast(replay 1)+autoconnect", items: Sharing.deliveries,
  baseline: sharingBaseline
) { Sharing.marbles() }
let sharingOpenCombine = measure(
  "e. OpenCombine share(), 100 sinks", items: Sharing.deliveries, baseline: sharingBaseline
) { Sharing.openCombine() }
compare("e. Marbles vs OpenCombine share()", sharingMarbles, versus: sharingOpenCombine)

// Phase f: a 1 MB marble diagram parsed and printed back; ns/item is per byte of the diagram.
let marbleBaselineName = "f. baseline byte parser + printer, 1 MB"
let marbleTextName = "f. marbles parse + print, 1 MB"
// Built (about 1 MB) only if a phase f line is selected.
let diagramBytes =
  isSelected(marbleBaselineName) || isSelected(marbleTextName) ? MarbleText.diagram.utf8.count : 1
let marbleBaseline = measure(marbleBaselineName, items: diagramBytes) {
  Baseline.marbles(MarbleText.diagram)
}
let marbleText = measure(marbleTextName, items: diagramBytes, baseline: marbleBaseline) {
  MarbleText.marbles()
}
if !marbleText.isNaN {
  let events = MarbleText.marbles()
  print("f. the diagram: \(diagramBytes) bytes, \(events) events, printed back identical")
}

// Phase g: 100k values of a hot test signal consumed through `values` and recorded with
// `record(sequence)` — a task the scheduler drives, suspending on every value — against a bare
// `for await` over an AsyncStream of the same values.
func measureAsync(_ name: String, items: Int, baseline: Double? = nil, _ body: () async -> Int)
  async -> Double
{
  guard isSelected(name) else { return .nan }
  let seconds = await Harness.median(body)
  print(Harness.Measurement(name: name, seconds: seconds, items: items, baseline: baseline).line)
  return seconds
}
let streamBaseline = await measureAsync(
  "g. baseline AsyncStream, for await, 100k", items: hundredThousand
) {
  // Off the main actor (top-level code is on it), as a test's iteration would be.
  await Task.detached {
    let stream = AsyncStream<Int> { continuation in
      for value in 0..<hundredThousand { continuation.yield(value) }
      continuation.finish()
    }
    var sum = 0
    for await value in stream { sum &+= value }
    return sum
  }.value
}
_ = measure(
  "g. record(signal.values), 100k values", items: hundredThousand, baseline: streamBaseline
) {
  let scheduler = TestScheduler()
  let hot = try! scheduler.hot(hotEvents)
  let recorder = scheduler.record(hot.values)
  scheduler.run()
  precondition(recorder.values.count == hundredThousand)
  return recorder.values.count
}

if isSelected("g. bare loop") || isSelected("g. main-actor hops") { SideProcesses.compare() }

// Phase j: a million `ContinuousClock.now` readings in driven work (a scheduler's task, where each
// reading is the scheduler's virtual time) against the same loop in a detached task outside any
// scheduler (real readings). Each reading is folded into the result so that none is dropped.
@inline(never) func readTheClock(_ count: Int) -> Int {
  var sum = 0
  for _ in 0..<count {
    sum &+= Int(truncatingIfNeeded: ContinuousClock.now.hashValue)
  }
  return sum
}
let readingsOutside = await measureAsync("j. 1M ContinuousClock.now, no scheduler", items: million)
{
  await Task.detached { readTheClock(million) }.value
}
_ = measure(
  "j. 1M ContinuousClock.now in driven work", items: million, baseline: readingsOutside
) {
  let scheduler = TestScheduler()
  let sum = Mutex(0)
  scheduler.task {
    let result = readTheClock(million)
    sum.withLock { $0 = result }
  }
  scheduler.run()
  return sum.withLock { $0 }
}

// Phase h: Combine on virtual time, against combine-schedulers' TestScheduler. Their queue is
// sorted again on every step, so theirs run once, not five times, and only up to `CS_MAX`
// (default 10,000: their 10,000 one-shots take about 25 s here, and the time grows with n²).
let combineSchedulersMax =
  Int(ProcessInfo.processInfo.environment["CS_MAX"] ?? "") ?? 10_000
for n in [5_000, 10_000, 100_000, 1_000_000] {
  let marbles = measure("h. Marbles, \(n) one-shot schedule(after:)", items: n) {
    CombineSchedulersPhase.marblesOneShots(n)
  }
  guard n <= combineSchedulersMax, n < 1_000_000 else { continue }
  let theirs = measureOnce("h. combine-schedulers, \(n) one-shot", items: n) {
    CombineSchedulersPhase.theirsOneShots(n)
  }
  speedup("h. combine-schedulers / Marbles, \(n)", marbles, versus: theirs)
}
for n in [5_000, 10_000, 100_000] {
  let marbles = measure("h. Marbles, debounce of \(n) values", items: n) {
    CombineSchedulersPhase.marblesDebounce(n)
  }
  guard n <= combineSchedulersMax else { continue }
  let theirs = measureOnce("h. combine-schedulers, debounce of \(n)", items: n) {
    CombineSchedulersPhase.theirsDebounce(n)
  }
  speedup("h. combine-schedulers / Marbles, debounce \(n)", marbles, versus: theirs)
}

if isSelected("i.") { await SideBySide.run() }

// Phase l: the test's world — awaits that drive against explicit advances, and 10,000 sleeping
// children awaited in a task group.
if isSelected("l. ") { await WorldPhase.run() }

// Phase m: a task every tick for 10 million ticks, with the process's memory by tenths.
if isSelected("m. ") { TaskEveryTick.run() }

// Phase n: determinism at scale — fresh worlds racing work against a timeout on busy cores.
if isSelected("n. ") { await DeterminismAtScale.run() }

// Phase q: work that does not wait, in a world and without one.
if isSelected("q. ") { await NoWaitsPhase.run() }

// Phase p: side by side with Go's testing/synctest, when a go is on the path.
if isSelected("p. ") { SynctestPhase.run() }

// Phase k (exploring schedules) is the root package's ExplorationBenchmark executable, which
// `make bench` runs after this one: the exploration machinery is MarbleTesting's `package`
// interface, out of this package's reach.

print(String(repeating: "-", count: 86))
if let peak = Harness.peakMemoryKiB() {
  print("peak memory: \(peak / 1024) MiB")
}
