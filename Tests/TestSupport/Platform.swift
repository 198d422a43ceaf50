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
