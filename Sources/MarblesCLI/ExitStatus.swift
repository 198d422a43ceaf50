/// The `marbles` command's exit status: what a script or CI job can branch on.
///
/// | status | meaning |
/// |---|---|
/// | 0 | every scenario that ran passed (including when `--filter` matched none) |
/// | 1 | at least one scenario's expectation failed |
/// | 2 | a usage error, an unreadable path, or a fixture that cannot be read or run |
///
/// An error (2) outranks a failed expectation (1): a run with both exits 2.
package enum ExitStatus: Int32, Sendable, Equatable {
  /// Every scenario that ran passed.
  case success = 0
  /// At least one expectation failed.
  case failure = 1
  /// A usage error, an unreadable path, or a fixture syntax or pipeline error.
  case error = 2
}
