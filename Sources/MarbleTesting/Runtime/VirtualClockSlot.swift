import CMarbleRuntime

/// The Swift side of CMarbleRuntime's virtual clocks: one per world (``World/clock``; a
/// scheduler that drives signals only, outside every world, has its own), and the thread's scope
/// that says whose time a reading is (real time for Marbles' own waits is ``RealTime``).
///
/// A reading of a standard clock (`ContinuousClock.now`, `Date()`, `DispatchTime.now()`, …) in a
/// scope that names a live clock is that clock's epoch plus its elapsed virtual time; elsewhere it
/// is real. Marbles enters the scope around the work it runs (drains, the jobs of a test's task)
/// and, for the job that made a scheduler, until that job ends.
final class VirtualClockSlot: @unchecked Sendable {
  // NB: @unchecked: the pointer and generation are set once; the C clock is atomic inside, and
  // ignores every call that names a generation it no longer has.
  private let pointer: OpaquePointer
  private let generation: UInt64

  init() {
    var generation: UInt64 = 0
    pointer = marbles_clock_create(&generation)
    self.generation = generation
  }

  deinit {
    release()
  }

  /// Lets the clock go: readings of it become real, wherever its scope is still entered.
  func release() {
    marbles_clock_release(pointer, generation)
  }

  /// Moves the clock on to `nanoseconds` after tick 0, never back: each of a world's schedulers
  /// brings the world's clock to where it is on the timeline, and the furthest is the world's
  /// time.
  func move(toNanoseconds nanoseconds: Int64) {
    marbles_clock_move_to(pointer, generation, nanoseconds)
  }

  /// Sets how long, in real time, a thread may keep reading one virtual instant before its
  /// readings move on in real time from it, so that a blocking wait on the clock ends.
  func setFrozenLimit(_ limit: Duration) {
    marbles_clock_set_frozen_limit(pointer, generation, limit.saturatingNanoseconds)
  }

  /// The virtual time elapsed when a thread's readings last moved on in real time (a blocking
  /// wait on the clock), or `nil` if none did.
  var lastThawedAt: Duration? {
    var elapsed: Int64 = 0
    guard marbles_clock_thawed(pointer, generation, &elapsed) > 0 else { return nil }
    return .nanoseconds(elapsed)
  }

  /// How much work readers of this clock handed to threads and Dispatch queues outside its world
  /// is under way (threads not ended, `dispatch_async` blocks not run).
  var outsideWork: Int {
    Int(marbles_clock_outside_work(pointer, generation))
  }

  /// How many Dispatch blocks that readers of this clock handed over have not yet run to their
  /// end: the world's own work, runnable while it is under way.
  var pendingBlocks: Int {
    Int(marbles_clock_pending_blocks(pointer, generation))
  }

  /// How many times readers of this clock woke a thread outside the world (a condition, a
  /// semaphore).
  var signals: UInt64 {
    marbles_clock_signals(pointer, generation)
  }

  /// How far after tick 0 — on a world's timeline — a Dispatch deadline falls, in nanoseconds,
  /// or `nil` for `DISPATCH_TIME_FOREVER`.
  func offset(ofDispatchTime when: UInt64) -> Int64? {
    var offset: Int64 = 0
    guard marbles_clock_offset_of_dispatch_time(pointer, generation, when, &offset) else {
      return nil
    }
    return offset
  }

  /// Runs `body` with every reading on this thread this clock's.
  func reading<Result>(_ body: () throws -> Result) rethrows -> Result {
    let previous = marbles_clock_enter(pointer, generation, MARBLES_SCOPE_THREAD, nil)
    defer { marbles_clock_restore(previous) }
    return try body()
  }

  /// Makes this clock's the readings of the job running now on this thread, until it ends: the
  /// job of `task` (with `nil`, the code running while no task is current).
  func enterRunningJob(of task: UnsafeRawPointer?) {
    marbles_clock_drop(marbles_clock_enter(pointer, generation, MARBLES_SCOPE_TASK, task))
  }

  /// Makes this clock's every reading on this thread for the rest of the run it is in (a drain,
  /// a job a world's loop runs), whose end puts back the scope it replaces.
  func enterRun() {
    marbles_clock_drop(marbles_clock_enter(pointer, generation, MARBLES_SCOPE_THREAD, nil))
  }

  /// Says that the job a world opened in has ended (see `marbles_clock_end_opening`).
  func endOpening() {
    marbles_clock_end_opening(pointer, generation)
  }

  /// Ends ``enterRunningJob(of:)`` on this thread: its readings are real again.
  static func leaveRunningJob() {
    marbles_clock_drop(marbles_clock_enter(nil, 0, MARBLES_SCOPE_NONE, nil))
  }
}
