@_spi(Internals) import Signals

/// One thread per process that looks, in real time, for drivers whose work waits with nobody
/// driving it — a test awaiting a driven task before any `run()` — and gives that work up, so that
/// the await ends instead of hanging the test run (see ``TaskDriver``).
///
/// It only looks and tells: the failure is recorded on the scheduler and reported on the test's
/// own task, by the next assertion, `flush()`, the scheduler's release, or the error a
/// `scheduler.task`'s value throws.
enum Watchdog {
  /// Starts the thread, once.
  static func start() {
    _ = started
  }

  private static let started: Void = {
    Platform.startThread {
      while true { Platform.sleep(Watchdog.look()) }
    }
  }()

  /// Looks at every driver once, gives up the stalled ones, and returns how long to wait until the
  /// next look: a tenth of the shortest stall timeout, between 5 ms and half a second.
  ///
  /// NB: a function of its own so that the drivers it looked at are released before the thread
  /// sleeps: holding them would keep a released scheduler's driver alive.
  private static func look() -> Duration {
    // NB: on a thread of its own, which never reads virtual time.
    let drivers = Registry.shared.withLock { registry in registry.worlds.values.flatMap(\.drivers) }
    let shortest = drivers.map(\.stallTimeout).min() ?? .seconds(5)
    let period = min(max(shortest / 10, .milliseconds(5)), .milliseconds(500))
    let now = ContinuousClock.now
    for driver in drivers where driver.isStalled(at: now, period: period) {
      driver.core?.giveUpStalledWork()
    }
    return period
  }
}
