@_spi(Internals) import Signals

/// One thread that looks, in real time, for drivers whose work waits with nobody
/// driving it — a test awaiting a driven task before any `run()` — and gives that work up, so that
/// the await ends instead of hanging the test run (see ``TaskDriver``).
///
/// It only looks and tells: the failure is recorded on the scheduler and reported on the test's
/// own task, by the next assertion, `flush()`, the scheduler's release, or the error a
/// `scheduler.task`'s value throws.
///
/// The thread runs while a world is open: started by a world's scheduler, it ends at its first look
/// that finds no world open.
enum Watchdog {
  /// Whether the thread runs (decided under this lock, which is taken before the registry's).
  private static let isRunning = Locked(false)

  /// Starts the thread unless it runs. Called once the world is in the registry, so that a thread
  /// that is ending either sees the world or has said so before this looks.
  static func start() {
    isRunning.withLock { isRunning in
      guard !isRunning else { return }
      isRunning = true
      Platform.startThread {
        while let period = Watchdog.look() { Platform.sleep(period) }
      }
    }
  }

  /// Whether the thread runs now.
  package static var isWatching: Bool {
    isRunning.withLock { $0 }
  }

  /// Looks at every driver once, gives up the stalled ones, and returns how long to wait until the
  /// next look: a tenth of the shortest stall timeout, between 5 ms and half a second; `nil` when
  /// no world is open, and the thread ends.
  ///
  /// NB: a function of its own so that the drivers it looked at are released before the thread
  /// sleeps: holding them would keep a released scheduler's driver alive.
  private static func look() -> Duration? {
    let drivers = isRunning.withLock { isRunning -> [TaskDriver]? in
      let worlds = Registry.shared.withLock { registry in Array(registry.worlds.values) }
      guard !worlds.isEmpty else {
        isRunning = false
        return nil
      }
      return worlds.flatMap(\.drivers)
    }
    guard let drivers else { return nil }
    let shortest = drivers.map(\.stallTimeout).min() ?? .seconds(5)
    let period = min(max(shortest / 10, .milliseconds(5)), .milliseconds(500))
    let now = ContinuousClock.now
    for driver in drivers where driver.isStalled(at: now, period: period) {
      driver.core?.giveUpStalledWork()
    }
    return period
  }
}
