import CMarbleRuntime
@_spi(Internals) import Signals
import Synchronization

extension TestScheduler {
  /// Starts an unstructured task that this scheduler drives: its body starts at the current tick,
  /// in the next `advance`, `run` or `flush` (`advance(by: 0)` runs what is ready now), and every
  /// later step of it — after a sleep on ``clock``, a value from a signal — happens inside the
  /// call that reaches its tick.
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let model = SearchModel(clock: scheduler.clock)
  /// scheduler.task { await model.type("swift") }
  /// scheduler.advance(by: .milliseconds(300))
  /// #expect(model.results == ["swift"])
  /// ```
  ///
  /// Child tasks, task groups and the unstructured tasks its code creates are driven too (how: the
  /// article "Testing async/await code" in the Marbles documentation). A task still suspended when
  /// `flush()` finds nothing left to do — waiting on a real clock, a thread, a continuation nobody
  /// resumes — is reported by `flush()`, by name.
  ///
  /// - Parameters:
  ///   - name: What reports call the task; by default, where it was created.
  ///   - body: The work.
  ///   - fileID: The caller's file ID (filled in for you), for the default name.
  ///   - line: The caller's line (filled in for you), for the default name.
  /// - Returns: The task; cancel it to stop it, or `await` its value once the scheduler has run it.
  @discardableResult
  public func task<Success: Sendable>(
    name: String? = nil, fileID: String = #fileID, line: UInt = #line,
    _ body: @escaping @Sendable () async throws -> Success
  ) -> Task<Success, any Error> {
    let record = core.tasks.start(
      name: name ?? "task at \(fileID):\(line)", at: core.now)
    let driver = core.driver
    let task = Task(executorPreference: driver) {
      defer { record.finish() }
      // A scheduler that gave its work up (nothing drove it) fails the task, so that whoever
      // awaits its value learns why instead of getting a value made without virtual time.
      if let failure = driver.abandonment { throw record.failure(given: failure) }
      do {
        return try await body()
      } catch {
        if let failure = driver.abandonment { throw record.failure(given: failure) }
        throw error
      }
    }
    record.taskID = swift_task_getJobTaskId(unsafeBitCast(task, to: MarblesJobRef.self))
    if let id = record.taskID { driver.schedule?.name(task: id, record.name) }
    return task
  }

  /// Subscribes a recorder to an `AsyncSequence` at tick `subscribeAt`: a driven task iterates it
  /// from then on, and each element is recorded at the tick it arrives, then the end — `nil` as
  /// completion, a thrown error as the failure. Disposing at `disposeAt` cancels the task at that
  /// tick, and nothing more is recorded.
  ///
  /// At the current tick (the default) the iterating task starts at once: its first step runs
  /// before `record` returns, up to its first suspension (the first `next()` waiting for an
  /// element), as a `Task.immediate` would; the clock does not move.
  ///
  /// ```swift
  /// let input = try scheduler.hot("-a--b-c---|")
  /// let debounced = scheduler.record(input.values.debounce(for: .milliseconds(2), clock: scheduler.clock))
  /// scheduler.run()
  /// assertMarbles(debounced, "---a----c-|")
  /// ```
  ///
  /// It records `Signal(sequence)` (see `Signal.init(_:)`), so `assertMarbles`, `expect` and
  /// tables treat it like any recorded signal; a sequence that throws `any Error` is asserted with
  /// the `any Error` overloads, where `#` matches a thrown ``TestError``.
  ///
  /// - Parameters:
  ///   - sequence: The sequence to iterate.
  ///   - subscribeAt: The tick of the first pull.
  ///   - disposeAt: The tick to cancel the iteration at, or `nil` to let it run to its end.
  /// - Returns: The recorder.
  public func record<S: AsyncSequence & Sendable>(
    _ sequence: S, subscribeAt: Int = 0, disposeAt: Int? = nil
  ) -> TestSubscriber<S.Element, S.Failure> where S.Element: Sendable {
    record(Signal(sequence), subscribeAt: subscribeAt, disposeAt: disposeAt)
  }
}

/// The tasks a scheduler started with `task(…)`, for reporting the ones that never finish.
package final class DrivenTasks: Sendable {
  /// One task: its name, the tick it started at, and whether its body has returned.
  package final class Record: Sendable {
    package let name: String
    package let startedAt: Int
    private let finished = Atomic(false)
    private let id = Atomic<UInt64>(0)

    /// The task's id (0 until it is set, just after the task is made).
    package internal(set) var taskID: UInt64? {
      get { id.load(ordering: .acquiring) }
      set { id.store(newValue ?? 0, ordering: .releasing) }
    }

    init(name: String, startedAt: Int) {
      self.name = name
      self.startedAt = startedAt
    }

    func finish() { finished.store(true, ordering: .releasing) }

    /// What this task throws when its scheduler gave its work up: this task named, and a pointer
    /// to the scheduler's own failure, which says why and how to drive it — reported on the test
    /// once, by the scheduler, whether or not the error is caught.
    func failure(given failure: TestSchedulerFailure) -> TestSchedulerFailure {
      guard failure.kind == .undrivenWork else { return failure }
      return TestSchedulerFailure(
        kind: .undrivenWork,
        message: "\(name) (started at tick \(startedAt)) was never driven to its end: nothing "
          + "drove it, and its scheduler gave its work up (the scheduler's failure says how to "
          + "drive it)")
    }

    package var isFinished: Bool { finished.load(ordering: .acquiring) }
  }

  private let records = Locked<[Record]>([])

  func start(name: String, at tick: Int) -> Record {
    let record = Record(name: name, startedAt: tick)
    records.withLock { records in
      // NB: the finished ones go whenever the count reaches a power of two (amortized once per
      // record): a scheduler that starts a task every tick keeps only the unfinished.
      if records.count >= 64, records.count & (records.count - 1) == 0 {
        records.removeAll { $0.isFinished }
      }
      records.append(record)
    }
    return record
  }

  /// The record of the task whose id is `id`, if it was started here.
  package func record(ofTask id: UInt64) -> Record? {
    records.withLock { records in records.first { $0.taskID == id } }
  }

  /// How many records are kept.
  package var count: Int {
    records.withLock { $0.count }
  }

  /// The tasks whose body has not returned.
  package var unfinished: [Record] {
    records.withLock { records in records.filter { !$0.isFinished } }
  }

  /// Takes the tasks whose body has not returned, to report them once; forgets the ones that have.
  package func takeUnfinished() -> [Record] {
    records.withLock { records in
      defer { records = [] }
      return records.filter { !$0.isFinished }
    }
  }
}
