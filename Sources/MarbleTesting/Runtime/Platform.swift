// Everything in MarbleTesting that differs by operating system: thread-local slots, thread ids,
// the watchdog's thread and a real sleep. Each Linux branch has its Darwin twin; nothing else in
// the module names an OS.
//
// Darwin is written for, not built or tested here.

import CMarbleRuntime

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A thread-local slot holding one pointer-sized value (or nothing) per thread.
struct ThreadLocalSlot: @unchecked Sendable {
  // NB: @unchecked: the key is written once, in `init`, before the slot is shared.
  private var key = pthread_key_t()

  init() {
    pthread_key_create(&key, nil)
  }

  /// A slot whose value, when its thread ends, is handed to `destructor`.
  init(destructor: @escaping @convention(c) (UnsafeMutableRawPointer?) -> Void) {
    #if canImport(Darwin)
      // Darwin declares the destructor's argument non-optional; the same C function either way.
      pthread_key_create(
        &key,
        unsafeBitCast(destructor, to: (@convention(c) (UnsafeMutableRawPointer) -> Void).self))
    #else
      pthread_key_create(&key, destructor)
    #endif
  }

  /// This thread's value.
  ///
  /// NB: converted by an initializer, not `Optional.map`: a debug build calls `map` as a generic
  /// function, with a metadata lookup, and every job and reading of time reads a slot (5% of a
  /// debug build's 100,000 sleeps).
  var value: UnsafeRawPointer? {
    UnsafeRawPointer(pthread_getspecific(key))
  }

  /// Sets this thread's value.
  func set(_ value: UnsafeRawPointer?) {
    pthread_setspecific(key, value)
  }

  /// Runs `body` with this thread's value set to `value`, then puts the old one back.
  func with<Result>(_ value: UnsafeRawPointer?, _ body: () throws -> Result) rethrows -> Result {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, value)
    defer { pthread_setspecific(key, previous) }
    return try body()
  }
}

package enum Platform {
  /// This thread, as a number.
  static var threadID: UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }

  /// Starts a detached thread running `body`: outside Dispatch's pools and the cooperative
  /// pool, so that no busy pool holds it back (the watchdog's; a test's real callback).
  package static func startThread(_ body: @escaping @Sendable () -> Void) {
    /// The body, handed to the new thread as its one argument.
    final class Body: Sendable {
      let run: @Sendable () -> Void
      init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    // NB: Marbles' own thread, never work a world handed outside (the clock wrapper counts the
    // threads started where readings are virtual).
    marbles_real_time_begin()
    defer { marbles_real_time_end() }
    let result = pthread_create(
      &thread, nil,
      { context in
        #if canImport(Darwin)
          Unmanaged<Body>.fromOpaque(context).takeRetainedValue().run()
        #else
          Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
        #endif
        return nil
      }, Unmanaged.passRetained(Body(body)).toOpaque())
    precondition(result == 0, "Marbles could not start a thread (error \(result)).")
    #if canImport(Darwin)
      if let thread { pthread_detach(thread) }
    #else
      pthread_detach(thread)
    #endif
  }

  /// Gives this thread's core to another ready thread, if any (`sched_yield`, in every C library
  /// Marbles builds with).
  static func yieldThread() {
    sched_yield()
  }

  /// Blocks this thread for `duration` of real time (reads no clock).
  static func sleep(_ duration: Duration) {
    // NB: POSIX lets `usleep` refuse a second or more: the wait goes in pieces shorter than that.
    var left = max(0, duration.saturatingNanoseconds / 1_000)
    while left > 0 {
      let now = min(left, 999_999)
      usleep(useconds_t(now))
      left -= now
    }
  }

  /// What names the build this code was linked into: the device, inode, size and modification
  /// time of the image (a test bundle, an executable) that holds MarbleTesting. Every process
  /// of one test run shares it; a rebuild changes it.
  package static let buildIdentity: String = {
    var identity: [UInt64] = [0, 0, 0, 0]
    guard marbles_image_identity(&identity) else { return "unknown" }
    return identity.map { String($0) }.joined(separator: " ")
  }()

  /// Whether a standard reading of time in this process reaches Marbles' clock wrapper — the one
  /// thing that makes `Date()` and `ContinuousClock.now` virtual. Asked of the process itself:
  /// the standard library reads a clock, and the wrapper counts what it answers. On Linux the
  /// wrapper is the process's `clock_gettime` where the executable is linked dynamically; on Apple
  /// platforms (written for, not run here) `DYLD_INTERPOSE` reaches only the images loaded at
  /// launch — not a test bundle that `xctest` loads later.
  static var readsVirtualTime: Bool {
    let before = marbles_thread_reading_count()
    _ = ContinuousClock.now
    return marbles_thread_reading_count() != before
  }

  /// Whether the Swift concurrency runtime running this process is one Marbles' runtime code was
  /// tested against. On Linux the runtime is the toolchain's, which the manifest's
  /// `MARBLES_TESTED_RUNTIME` already names. On Apple platforms (written for, not run here) it is
  /// the OS's, whatever the toolchain: the releases that ship Swift 6.3's runtime (26.4) — an
  /// assumption no Apple machine has checked.
  static var runsTheTestedRuntime: Bool {
    #if canImport(Darwin)
      if #available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *) {
        return true
      }
      return false
    #else
      return true
    #endif
  }

  /// The folder for temporary files: `TMPDIR`, else `/tmp`.
  package static var temporaryFolder: String {
    environment("TMPDIR").map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "/tmp"
  }

  /// The value of the environment variable `name`, if it is set.
  package static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// The process's parent, as a number: it changes when the parent ends (the process is handed
  /// to another).
  static var parentProcessID: Int {
    Int(getppid())
  }

  /// The process's parent as the process was loaded, before `main`.
  static var parentProcessIDAtLoad: Int {
    marbles_parent_at_load()
  }

  /// Whether an XCTest test can be run again, in fresh instances of its test case, for
  /// `MARBLES_EXPLORE`: on Linux (swift-corelibs-xctest); not on Apple platforms, whose XCTest
  /// makes test cases from Objective-C invocations (written for, not built here).
  package static var runsXCTestsAgain: Bool {
    #if canImport(Darwin)
      false
    #else
      true
    #endif
  }

  /// Ends the process at once with `status`, without running exit handlers (a test framework's
  /// may wait for the test that cannot end).
  static func endProcess(status: Int32) -> Never {
    _exit(status)
  }

  /// Writes `text` to standard error.
  package static func printError(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }
}
