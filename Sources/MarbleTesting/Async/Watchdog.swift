#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
    var thread = pthread_t()
    let result = pthread_create(
      &thread, nil,
      { _ in Watchdog.loop() }, nil)
    precondition(result == 0, "Marbles could not start its watchdog thread (error \(result)).")
    pthread_detach(thread)
  }()

  private static func loop() -> UnsafeMutableRawPointer? {
    while true {
      let period = look()
      let (seconds, attoseconds) = period.components
      usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
    }
  }

  /// Looks at every driver once, gives up the stalled ones, and returns how long to wait until the
  /// next look: a tenth of the shortest stall timeout, between 5 ms and half a second.
  ///
  /// NB: a function of its own so that the drivers it looked at are released before the thread
  /// sleeps: holding them would keep a released scheduler's driver alive.
  private static func look() -> Duration {
    let drivers = DrivenWorld.liveDrivers
    let shortest = drivers.map(\.stallTimeout).min() ?? .seconds(5)
    let period = min(max(shortest / 10, .milliseconds(5)), .milliseconds(500))
    let now = ContinuousClock.now
    for driver in drivers where driver.isStalled(at: now, period: period) {
      driver.core?.giveUpStalledWork()
    }
    return period
  }
}
