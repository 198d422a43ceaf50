import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals

/// Dispatch's timers in virtual time: `DispatchQueue.asyncAfter` — on any queue — started by
/// driven work or by the test's own task runs its block at the virtual deadline, inside the
/// `advance`, `run` or `flush` that reaches it, and has finished when that call returns, as a
/// driven job would have.
///
/// The block keeps its queue's rules: it is submitted to its queue at the deadline's tick and the
/// drain waits for it (a serial queue's blocks one at a time, in order; the main queue's on the
/// main actor, at once if the drain is on it), with its scheduler's time and driver, so that the
/// tasks it starts are driven. A queue that does not run it within the stall timeout is reported,
/// and the drain goes on.
///
/// A Dispatch timer source (`DispatchSource.makeTimerSource`) cannot be made virtual this way:
/// libdispatch fires it from its own timer threads, with no call Marbles could stand in for. It
/// keeps real time, and the scheduler notes it, so that `flush()` names it.
enum VirtualDispatch {
  /// Installs the handlers, once.
  static func install() {
    _ = installed
  }

  private static let installed: Void = {
    marbles_set_dispatch_handlers(
      { when, queue, block in VirtualDispatch.after(when, queue: queue, block: block) },
      { _ in VirtualDispatch.timerSourceStarted() })
  }()

  /// A `dispatch_after` where readings are virtual: the block runs at the deadline's tick of the
  /// scheduler whose time the code here reads.
  ///
  /// - Returns: Whether the scheduler took it (it owns `block` then).
  private static func after(
    _ when: UInt64, queue: UnsafeMutableRawPointer, block: UnsafeMutableRawPointer
  ) -> Bool {
    guard !isTestFrameworks(queue), let driver = Routing.currentDriver, let core = driver.core,
      let offset = driver.clock.offset(ofDispatchTime: when)
    else { return false }
    let work = DispatchedBlock(block: block, queue: queue)
    core.schedule(at: core.ticks(offset)) { work.run(on: driver) }
    driver.world?.wake()
    return true
  }

  /// Whether `queue` is a test framework's own (XCTest's waiter times its timeouts on one): its
  /// timers keep real time.
  private static func isTestFrameworks(_ queue: UnsafeMutableRawPointer) -> Bool {
    String(cString: marbles_queue_label(queue)).hasPrefix("org.swift.XCTest.")
  }

  /// A Dispatch timer source was started where readings are virtual.
  private static func timerSourceStarted() {
    guard let driver = Routing.currentDriver, let core = driver.core else { return }
    driver.note(
      "a Dispatch timer source (DispatchSource.makeTimerSource) was started at tick \(core.now); "
        + "it runs in real time — use DispatchQueue.asyncAfter, a standard sleep or the "
        + "scheduler's clock for a timer in virtual time")
  }
}

/// A block `asyncAfter` handed over, until it runs on its queue (or the scheduler is released
/// first, which releases it unrun).
private final class DispatchedBlock: @unchecked Sendable {
  // NB: @unchecked: both pointers are set once; the block is run or released once, under `state`.
  private let block: UnsafeMutableRawPointer
  private let queue: UnsafeMutableRawPointer
  private let isPending = Locked(true)

  init(block: UnsafeMutableRawPointer, queue: UnsafeMutableRawPointer) {
    self.block = block
    self.queue = queue
  }

  deinit {
    if take() { marbles_block_release(block) }
  }

  /// Whether the block is still to run or release, marking it done.
  private func take() -> Bool {
    isPending.withLock { isPending in
      defer { isPending = false }
      return isPending
    }
  }

  /// Runs the block on its queue, as `driver`'s work, and waits for it.
  func run(on driver: TaskDriver) {
    guard take() else { return }
    let block = UnsafeSendable(block)
    if marbles_is_main_queue(queue), MainQueue.isCurrent {
      driver.withCurrentDriver { marbles_block_run(block.value) }
      return
    }
    let queue = UnsafeSendable(queue)
    let ran = driver.onQueue({ work in
      let context = Unmanaged.passRetained(Work(work)).toOpaque()
      marbles_dispatch_async(queue.value, context) { context in
        Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
      }
    }) {
      marbles_block_run(block.value)
    }
    if !ran {
      driver.note(
        "a block given to DispatchQueue.asyncAfter waited on its queue for longer than the "
          + "stall timeout (\(driver.stallTimeout)); it runs when the queue comes free, in real "
          + "time")
    }
  }

  private final class Work {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
}

/// A pointer handed between threads, which only one of them uses at a time.
private struct UnsafeSendable: @unchecked Sendable {
  // NB: @unchecked: the pointee is used by one thread at a time (the block runs once).
  let value: UnsafeMutableRawPointer
  init(_ value: UnsafeMutableRawPointer) { self.value = value }
}
