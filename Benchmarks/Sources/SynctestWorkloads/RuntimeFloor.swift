@_spi(Internals) import Signals
import Synchronization
@_spi(ExperimentalScheduling) @_spi(ExperimentalCustomExecutors) import _Concurrency

/// The Swift runtime's own floor under phase p's workloads: the least any virtual time built on
/// the runtime's sleeps can cost, Marbles or another.
///
/// A default executor that is the whole of a virtual time and nothing else: one thread runs every
/// job in the order it was enqueued; a sleep's wake-up job is kept by its tick (1 ms, rounded up,
/// as a world's scheduler rounds) and, when no job is ready, time jumps to the earliest one. No
/// membership (every job of the process is its own), no choice point, no step limits, no reports,
/// no locks but one uncontended one. What it still pays is the runtime's: a task and a
/// continuation for each sleep, the enqueue of each resumption, a task's creation and end.
///
/// It is installed in a process that opens no world (Marbles installs nothing there), and only
/// for this measurement. (Apple platforms: the runtime's executor factory needs the 26.4 releases;
/// written for, not built.)
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
final class FloorExecutor: TaskExecutor, SchedulingExecutor, @unchecked Sendable {
  /// NB: unchecked: the jobs and the timeline are touched only under `lock`, and `tick` only on
  /// the thread that runs the loop (the jobs run there too).
  private struct Queues {
    var ready = FIFOQueue<UnownedJob>()
    /// Wake-ups by tick, then by the order they were enqueued in: a binary heap.
    var timeline: [(tick: Int, order: Int, job: UnownedJob)] = []
    var enqueued = 0
  }

  private let lock = Mutex<Void>(())
  private nonisolated(unsafe) var queues = Queues()
  /// The virtual now, in ticks of 1 ms.
  private nonisolated(unsafe) var tick = 0

  /// The one executor, the process's default one once ``install()`` ran.
  static let shared = FloorExecutor()

  /// Makes the floor executor the default executor, keeping the main executor as it is.
  static func install() {
    _ = Factory.main
    _createExecutors(factory: Factory.self)
  }

  private enum Factory: ExecutorFactory {
    static let main: any MainExecutor = MainActor.executor
    static var mainExecutor: any MainExecutor { main }
    static var defaultExecutor: any TaskExecutor { FloorExecutor.shared }
  }

  /// The virtual time elapsed since the loop began.
  var elapsed: Duration { .milliseconds(tick) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    lock.withLock { _ in queues.ready.append(job) }
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
  ) {
    let job = UnownedJob(job)
    // The deadline is the sleeping code's real now plus its duration; its distance from the
    // real now, rounded up to the tick, is how far it is from the virtual now.
    let remaining = clock.now.duration(to: instant) as? Duration ?? .zero
    let ticks =
      remaining <= .zero
      ? 0 : Int((remaining + .milliseconds(1) - .nanoseconds(1)) / .milliseconds(1))
    lock.withLock { _ in
      queues.enqueued += 1
      push((tick + ticks, queues.enqueued, job))
    }
  }

  /// Runs every job until none is ready and none is due: `body`'s task and all it started.
  func run(_ body: @escaping @Sendable () async -> Void) {
    let done = Atomic(false)
    Task(executorPreference: self) {
      await body()
      done.store(true, ordering: .releasing)
    }
    while true {
      while let job = nextReady() { job.runSynchronously(on: asUnownedTaskExecutor()) }
      guard let (dueTick, job) = popDue() else { break }
      tick = max(tick, dueTick)
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
    guard done.load(ordering: .acquiring) else {
      fail("floor: the workload waits for something the floor cannot run")
    }
  }

  private func nextReady() -> UnownedJob? {
    lock.withLock { _ in queues.ready.popFirst() }
  }

  // MARK: The timeline's heap

  private func push(_ entry: (tick: Int, order: Int, job: UnownedJob)) {
    queues.timeline.append(entry)
    var child = queues.timeline.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(queues.timeline[child], queues.timeline[parent]) else { break }
      queues.timeline.swapAt(child, parent)
      child = parent
    }
  }

  private func popDue() -> (Int, UnownedJob)? {
    lock.withLock { _ in
      guard let first = queues.timeline.first else { return nil }
      let last = queues.timeline.removeLast()
      if !queues.timeline.isEmpty {
        queues.timeline[0] = last
        var parent = 0
        while true {
          let left = 2 * parent + 1
          let right = left + 1
          var next = parent
          if left < queues.timeline.count, precedes(queues.timeline[left], queues.timeline[next]) {
            next = left
          }
          if right < queues.timeline.count, precedes(queues.timeline[right], queues.timeline[next])
          {
            next = right
          }
          guard next != parent else { break }
          queues.timeline.swapAt(parent, next)
          parent = next
        }
      }
      return (first.tick, first.job)
    }
  }

  private func precedes(
    _ a: (tick: Int, order: Int, job: UnownedJob), _ b: (tick: Int, order: Int, job: UnownedJob)
  ) -> Bool {
    a.tick != b.tick ? a.tick < b.tick : a.order < b.order
  }
}
