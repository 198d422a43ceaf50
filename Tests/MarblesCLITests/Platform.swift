// What the CLI tests need of the operating system that differs by OS, in one place (Darwin
// written for, not built here).

import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX pseudo-terminal functions. Glibc declares them only for `_XOPEN_SOURCE`, which
/// Swift's Glibc module is not built with, so on Linux they are looked up at run time.
enum PseudoTerminal {
  static let lock = Mutex(())
  #if canImport(Darwin)
    static let open: @convention(c) (Int32) -> Int32 = posix_openpt
    static let grant: @convention(c) (Int32) -> Int32 = grantpt
    static let unlock: @convention(c) (Int32) -> Int32 = unlockpt
    static let name: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>? = ptsname
  #else
    static let open = function("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
    static let grant = function("grantpt", as: (@convention(c) (Int32) -> Int32).self)
    static let unlock = function("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
    static let name = function(
      "ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

    /// The C function `name` in the process's libc.
    private static func function<Function>(_ name: String, as type: Function.Type) -> Function {
      guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else {
        fatalError("libc has no \(name)")
      }
      return unsafeBitCast(symbol, to: type)
    }
  #endif
}
