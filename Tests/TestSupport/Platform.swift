// What the tests need of the operating system, in one place (Darwin written for, not built here).

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Blocks this thread for `microseconds` of real time without reading any clock — so it takes
/// real time even inside work a scheduler drives, where every clock reading is virtual.
public func blockForRealTime(microseconds: UInt32) {
  usleep(useconds_t(microseconds))
}

/// This thread's reading of the wall clock through the C library's `clock_gettime` — the call
/// Marbles' wrapper answers, virtual where the thread's scope says so — in nanoseconds.
public func wallClockReading() -> Int64 {
  var time = timespec()
  clock_gettime(CLOCK_REALTIME, &time)
  return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

/// Forks the process; the child runs `child` (only what is safe in a forked child of a process
/// with threads) and exits with what it returns. Returns the child's exit status, or `nil` if
/// there was no child or it did not exit by itself.
///
/// NB: `fork` is found by name: Swift's C library modules mark it unavailable.
public func forkedChildStatus(_ child: () -> Int32) -> Int32? {
  typealias Fork = @convention(c) () -> pid_t
  guard let symbol = symbolAnywhere("fork") else { return nil }
  let pid = unsafeBitCast(symbol, to: Fork.self)()
  if pid == 0 { _exit(child()) }
  guard pid > 0 else { return nil }
  var status: Int32 = 0
  while waitpid(pid, &status, 0) == -1, errno == EINTR {}
  guard status & 0x7f == 0 else { return nil }
  return (status >> 8) & 0xff
}

/// Whether the process runs under the thread sanitizer (its runtime is linked in).
public var isUnderThreadSanitizer: Bool { symbolAnywhere("__tsan_init") != nil }

/// The symbol `name` in any image of the process (`dlsym(RTLD_DEFAULT, name)`).
private func symbolAnywhere(_ name: String) -> UnsafeMutableRawPointer? {
  #if canImport(Darwin)
    let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
  #else
    let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
  #endif
  return dlsym(everywhere, name)
}

/// The wall clock through each of the C library's readings — `clock_gettime` before,
/// `gettimeofday` (given an old-style time zone to clear) and `time`, then `clock_gettime` after —
/// in whole seconds, with whether `gettimeofday` cleared the zone.
public func wallClockSecondsThroughEachReading() -> (
  before: Int, gettimeofday: Int, time: Int, after: Int, zoneCleared: Bool
) {
  var before = timespec()
  clock_gettime(CLOCK_REALTIME, &before)
  var value = timeval()
  var zone = timezone(tz_minuteswest: 60, tz_dsttime: 1)
  let succeeded = gettimeofday(&value, &zone) == 0
  let seconds = time(nil)
  var after = timespec()
  clock_gettime(CLOCK_REALTIME, &after)
  return (
    Int(before.tv_sec), succeeded ? Int(value.tv_sec) : -1, Int(seconds), Int(after.tv_sec),
    zone.tz_minuteswest == 0 && zone.tz_dsttime == 0
  )
}
