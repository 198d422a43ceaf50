@_spi(Internals) import Signals
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every `expect(…)` no `flush()` has checked yet, process-wide: the last line of defence of
/// "nothing is silently green".
///
/// An unchecked expectation is normally reported when its ``/MarbleTesting/TestScheduler`` is released at the end
/// of its test (see `TestScheduler.deinit`): test signals, recorders and expectations never keep
/// their scheduler alive, so only code under test can — a closure the scheduler runs that
/// captures the scheduler itself, say. Such a scheduler is never released and cannot report. So
/// each expectation is also listed here until it is checked or reported, and when the test process
/// exits with expectations still listed, their locations are printed to standard error and the
/// process exits with status 1: the run fails, even though no test can be named.
enum UncheckedExpectations {
  private static let pending = Locked<[Int: SourceSite]>([:])
  private static let nextToken = Atomic<Int>(0)
  /// Registers the exit check, once, when the first expectation is listed.
  private static let exitCheck: Void = {
    atexit { UncheckedExpectations.failIfAnyAreLeft() }
  }()

  /// Lists an expectation written at `site`.
  ///
  /// - Returns: Its token, for ``remove(_:)``.
  static func add(_ site: SourceSite) -> Int {
    _ = exitCheck
    let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
    pending.withLock { $0[token] = site }
    return token
  }

  /// Removes an expectation that was checked or reported.
  static func remove(_ token: Int) {
    _ = pending.withLock { $0.removeValue(forKey: token) }
  }

  /// At exit: prints the expectations still listed and ends the process with status 1.
  private static func failIfAnyAreLeft() {
    let left = pending.withLock { $0.sorted { $0.key < $1.key }.map(\.value) }
    guard !left.isEmpty else { return }
    var text =
      "error: Marbles: \(left.count) expectation\(left.count == 1 ? " was" : "s were") never "
      + "checked. \(left.count == 1 ? "Its TestScheduler was" : "Their TestSchedulers were") "
      + "neither flushed nor released — something keeps \(left.count == 1 ? "it" : "them") alive, "
      + "such as an action or a signal it drives that captures the scheduler itself.\n"
    for site in left.prefix(20) {
      text +=
        "\(site.description): error: expect(…) is never checked; call scheduler.flush() "
        + "after it\n"
    }
    if left.count > 20 { text += "… and \(left.count - 20) more\n" }
    fflush(nil)
    text.withCString { pointer in _ = write(2, pointer, strlen(pointer)) }
    _exit(1)
  }
}
