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
/// Timer sources (`DispatchSource.makeTimerSource`) made in a world follow the same rules
/// (``VirtualTimerSource``), but for those on a global queue (Foundation's run loop times its
/// waits with one), which keep real time, as do sources made outside the world.
enum VirtualDispatch {
  /// Installs the handlers, once.
  static func install() {
    _ = installed
  }

  private static let installed: Void = {
    // A job of a task that was on the main actor before the main executor hook was installed,
    // bound for the main actor again: the one routing question, as for every other job.
    marbles_set_main_job_handler { job in Membership.take(OpaquePointer(job), on: .main) }
    // A block that world work hands to a queue (`async`, a barrier's, a group's), on any queue, is
    // the world's: it runs as the world's work, so the tasks it starts are the world's too.
    marbles_set_block_handlers(
      {
        guard let driver = TaskDriver.current, !driver.hasLetGo, driver.world != nil else {
          return nil
        }
        return UnsafeMutableRawPointer(Unmanaged.passRetained(driver).toOpaque())
      },
      { token, block, context, end in
        let driver = Unmanaged<TaskDriver>.fromOpaque(token).takeRetainedValue()
        driver.withCurrentDriver { marbles_block_run(block) }
        end(context)
        driver.world?.wake()
      })
    marbles_set_dispatch_handlers(
      { when, queue, block in VirtualDispatch.after(when, queue: queue, block: block) },
      { event, source, object, start, interval, _ in
        VirtualTimerSource.handle(event, source, object, start: start, interval: interval)
      })
  }()

  /// A `dispatch_after` where readings are virtual: the block runs at the deadline's tick of the
  /// scheduler whose time the code here reads.
  ///
  /// - Returns: Whether the scheduler took it (it owns `block` then).
  private static func after(
    _ when: UInt64, queue: UnsafeMutableRawPointer, block: UnsafeMutableRawPointer
  ) -> Bool {
    guard !isTestFrameworks(queue), let driver = Membership.currentDriver, let core = driver.core,
      let offset = driver.clock.offset(ofDispatchTime: when)
    else { return false }
    let work = DispatchedBlock(block: block, queue: queue)
    core.schedule(at: core.firstTick(atOrAfterTimelineNanoseconds: offset)) {
      work.run(on: driver)
    }
    driver.world?.wake()
    return true
  }

  /// Whether `queue` is a test framework's own (XCTest's waiter times its timeouts on one): its
  /// timers keep real time, from any thread (XCTest's own calls on the main thread are told by
  /// their callers too: `marbles_read_by_a_test_framework`).
  private static func isTestFrameworks(_ queue: UnsafeMutableRawPointer) -> Bool {
    String(cString: marbles_queue_label(queue)).hasPrefix("org.swift.XCTest.")
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
    VirtualDispatch.run(on: UnsafeSendable(queue), as: driver, what: "a block given to asyncAfter")
    {
      marbles_block_run(block.value)
    }
  }
}

extension VirtualDispatch {
  /// Runs `body` on `queue` as `driver`'s work, and waits for it: at once if the queue is the main
  /// queue and this thread serves it; otherwise submitted to the queue, waiting at most the stall
  /// timeout (then noted: `what` runs when the queue comes free, in real time).
  static func run(
    on queue: UnsafeSendable, as driver: TaskDriver, what: String,
    _ body: @escaping @Sendable () -> Void
  ) {
    if marbles_is_main_queue(queue.value), MainQueue.isCurrent {
      driver.withCurrentDriver(body)
      return
    }
    let ran = driver.onQueue(
      { work in
        let context = Unmanaged.passRetained(Work(work)).toOpaque()
        marbles_dispatch_async(queue.value, context) { context in
          Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
        }
      }, body)
    if !ran {
      driver.note(
        "\(what) waited on its queue for longer than the stall timeout "
          + "(\(driver.stallTimeout)); it runs when the queue comes free, in real time")
    }
  }

  private final class Work {
    let body: @Sendable () -> Void
    init(_ body: @escaping @Sendable () -> Void) { self.body = body }
  }
}

/// A pointer handed between threads, which only one of them uses at a time.
struct UnsafeSendable: @unchecked Sendable {
  // NB: @unchecked: the pointee is used by one thread at a time (the block runs once).
  let value: UnsafeMutableRawPointer
  init(_ value: UnsafeMutableRawPointer) { self.value = value }
}
