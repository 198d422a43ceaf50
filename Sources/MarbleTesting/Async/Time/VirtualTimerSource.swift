import CMarbleRuntime
@_spi(Internals) import Signals

/// A Dispatch timer source made in a world, in the world's time: followed from its making
/// (`dispatch_source_create`, with its target queue), given its event handler, armed — at the
/// tick of its deadline, then every interval, on the scheduler of the code that armed it, while
/// the real timer stays unarmed — and cancelled. Its handler runs on its queue, as `asyncAfter`'s
/// blocks do (``VirtualDispatch``), finished when the call that reaches its tick returns.
///
/// So a debounce that code under test schedules on `DispatchQueue.main` (OpenCombine arms a timer
/// source for it) fires at its virtual deadline. A source suspended after it was armed still
/// fires (Marbles does not follow `suspend`). A source on one of Dispatch's global queues keeps
/// real time: that is how Foundation's run loop times its waits, which stay real.
final class VirtualTimerSource: @unchecked Sendable {
  // NB: @unchecked: the pointers are set once; the rest is behind `state`.
  private let source: UnsafeMutableRawPointer
  private let queue: UnsafeMutableRawPointer
  private let state = Locked(State())

  private struct State {
    var handler: UnsafeSendable?
    var armed: (any Disposable)?
    var driver: TaskDriver?
  }

  /// The sources made in worlds, by address.
  private static let sources = Locked<[UInt: VirtualTimerSource]>([:])

  private init(source: UnsafeMutableRawPointer, queue: UnsafeMutableRawPointer) {
    marbles_dispatch_retain(source)
    self.source = source
    self.queue = queue
  }

  deinit {
    let (handler, armed) = state.withLock { state in (state.handler, state.armed) }
    armed?.dispose()
    if let handler { marbles_block_release(handler.value) }
    marbles_dispatch_release(source)
  }

  /// What a timer source did (see `marbles_timer_event`).
  ///
  /// - Returns: For `MARBLES_TIMER_SET`, whether the timer was taken into virtual time; for
  ///   `MARBLES_TIMER_HANDLER`, whether the block copy was kept.
  static func handle(
    _ event: marbles_timer_event, _ source: UnsafeMutableRawPointer,
    _ object: UnsafeMutableRawPointer?, start: UInt64, interval: UInt64
  ) -> Bool {
    let key = UInt(bitPattern: source)
    switch event {
    case MARBLES_TIMER_CREATED:
      guard let queue = object, let driver = Membership.currentDriver else { return false }
      // NB: a timer on a global queue keeps real time: Foundation's run loop times its waits
      // with one (RunLoop.run(before:), XCTest's waiter), and a timed wait stays real. Made by
      // the world's work (not a run loop of the root thread's), it is named.
      guard !isGlobal(queue) else {
        if !ThreadSlot.isRootThreadCode, let core = driver.core {
          driver.note(
            "a Dispatch timer source on a global queue was made at tick \(core.now); it runs in "
              + "real time — give it a queue of its own or the main queue, or use "
              + "DispatchQueue.asyncAfter, a standard sleep or the scheduler's clock")
        }
        return false
      }
      let made = VirtualTimerSource(source: source, queue: queue)
      let replaced = sources.withLock { $0.updateValue(made, forKey: key) }
      _ = replaced
      return true
    case MARBLES_TIMER_HANDLER:
      guard let block = object, let made = sources.withLock({ $0[key] }) else { return false }
      made.setHandler(block)
      return true
    case MARBLES_TIMER_SET:
      guard let made = sources.withLock({ $0[key] }) else { return false }
      return made.arm(start: start, interval: interval)
    case MARBLES_TIMER_CANCELLED:
      let made = sources.withLock { $0.removeValue(forKey: key) }
      made?.disarm()
      return false
    default:
      return false
    }
  }

  /// Whether `queue` is one of Dispatch's global queues.
  private static func isGlobal(_ queue: UnsafeMutableRawPointer) -> Bool {
    String(cString: marbles_queue_label(queue)).hasPrefix("com.apple.root.")
  }

  /// Forgets the sources `driver` armed (its world closed): their timers are disarmed.
  static func forget(_ driver: TaskDriver) {
    let gone = sources.withLock { sources -> [VirtualTimerSource] in
      let gone = sources.filter { $0.value.state.withLock { $0.driver === driver } }
      for key in gone.keys { sources[key] = nil }
      return Array(gone.values)
    }
    for source in gone { source.disarm() }
  }

  private func setHandler(_ block: UnsafeMutableRawPointer) {
    let block = UnsafeSendable(block)
    let old = state.withLock { state -> UnsafeSendable? in
      defer { state.handler = block }
      return state.handler
    }
    if let old { marbles_block_release(old.value) }
  }

  /// Arms the timer on the scheduler of the code here: first at `start`'s tick, then every
  /// `interval` (`DISPATCH_TIME_FOREVER`, all ones, for once).
  private func arm(start: UInt64, interval: UInt64) -> Bool {
    guard let driver = Membership.currentDriver, let core = driver.core else { return false }
    guard let offset = driver.clock.offset(ofDispatchTime: start) else {
      disarm()
      return true
    }
    let tick = core.firstTick(atOrAfterTimelineNanoseconds: offset)
    let fire: @Sendable () -> Void = { [weak self] in self?.fire(on: driver) }
    let armed =
      interval == .max || interval == 0
      ? core.schedule(at: tick, fire)
      : core.schedule(
        at: tick, interval: max(1, core.ticks(.nanoseconds(Int64(clamping: interval)))), fire)
    let old = state.withLock { state -> (any Disposable)? in
      defer {
        state.armed = armed
        state.driver = driver
      }
      return state.armed
    }
    old?.dispose()
    driver.world?.wake()
    return true
  }

  private func disarm() {
    let armed = state.withLock { state -> (any Disposable)? in
      defer { state.armed = nil }
      return state.armed
    }
    armed?.dispose()
  }

  /// The timer's deadline came: its handler runs on its queue, unless it was cancelled.
  private func fire(on driver: TaskDriver) {
    guard !marbles_source_is_cancelled(source), let block = state.withLock({ $0.handler }) else {
      return
    }
    VirtualDispatch.run(on: UnsafeSendable(queue), as: driver, what: "a timer source's handler") {
      marbles_block_invoke(block.value)
    }
  }
}
