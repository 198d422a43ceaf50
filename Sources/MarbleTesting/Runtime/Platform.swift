// Everything in MarbleTesting that differs by operating system: thread-local slots, thread ids,
// the watchdog's thread, a real sleep, and the entry point that runs when the process loads. Each
// Linux branch has its Darwin twin; nothing else in the module names an OS.
//
// Darwin is written for, not built or tested here.

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

  /// This thread's value.
  var value: UnsafeRawPointer? {
    pthread_getspecific(key).map { UnsafeRawPointer($0) }
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

  /// Starts a detached thread running `body` for the life of the process.
  static func startThread(_ body: @escaping @convention(c) () -> Void) {
    #if canImport(Darwin)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let result = pthread_create(
      &thread, nil,
      { context in
        unsafeBitCast(context, to: (@convention(c) () -> Void).self)()
        return nil
      }, unsafeBitCast(body, to: UnsafeMutableRawPointer.self))
    precondition(result == 0, "Marbles could not start a thread (error \(result)).")
    #if canImport(Darwin)
      if let thread { pthread_detach(thread) }
    #else
      pthread_detach(thread)
    #endif
  }

  /// Blocks this thread for `duration` of real time (reads no clock).
  static func sleep(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    usleep(useconds_t(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
  }

  /// The value of the environment variable `name`, if it is set.
  package static func environment(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
  }

  /// Writes `text` to standard error.
  package static func printError(_ text: String) {
    var text = text
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }
}

#if MARBLES_TESTED_RUNTIME
  /// Runs when the process loads, before the test runner starts a thread or a main-actor job (see
  /// ``RuntimeHooks/installAtLoad()``). Swift places the entry in the loader's list of
  /// initializers itself: ELF's `.init_array`, Mach-O's `__mod_init_func`.
  #if canImport(Darwin)
    @used @section("__DATA,__mod_init_func")
    let marblesAtLoad: @convention(c) () -> Void = { RuntimeHooks.installAtLoad() }
  #else
    @used @section(".init_array")
    let marblesAtLoad: @convention(c) () -> Void = { RuntimeHooks.installAtLoad() }
  #endif
#endif
