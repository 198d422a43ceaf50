// What the `Marbles` module does that differs by OS, in one place (Darwin written for, not built
// here): registering its reporter when the process loads it.

import MarbleTesting

#if compiler(>=6.3)
  /// Runs when the process loads: registers `Marbles`' reporter with `MarbleTesting`
  /// (``TestIssueRecorder``), so that a hang a scheduler prevented fails the test that made it even
  /// when no assertion has reported yet. Swift places the entry in the loader's list of
  /// initializers itself (SE-0492): ELF's `.init_array`, Mach-O's `__mod_init_func`. Older
  /// toolchains register at the first report of an assertion instead.
  #if canImport(Darwin)
    @used @section("__DATA,__mod_init_func")
    let marblesRegistersItsReporter: @convention(c) () -> Void = {
      TestIssueRecorder.registered
    }
  #else
    @used @section(".init_array")
    let marblesRegistersItsReporter: @convention(c) () -> Void = {
      TestIssueRecorder.registered
    }
  #endif
#endif
