import AsyncAlgorithms
import MarbleTesting
import Testing

/// swift-async-algorithms 1.1.4 `Tests/AsyncAlgorithmsTests/TestTimer.swift`: every
/// `validate { … }` block, its diagrams verbatim, run by `validate` (see `Validation.swift`).
@Suite struct TestTimer {
  /// `test_tick1`:
  ///
  ///     AsyncTimerSequence(interval: .steps(1), clock: $0.clock).map { _ in "x" }
  ///     "xxxxxxx[;|]"
  @Test func tick1() throws {
    try validate(output: "xxxxxxx[;|]") {
      AsyncTimerSequence(interval: .steps(1), clock: $0.clock).map { _ in "x" }
    }
  }

  /// `test_tick2`:
  ///
  ///     AsyncTimerSequence(interval: .steps(2), clock: $0.clock).map { _ in "x" }
  ///     "-x-x-x-[;|]"
  @Test func tick2() throws {
    try validate(output: "-x-x-x-[;|]") {
      AsyncTimerSequence(interval: .steps(2), clock: $0.clock).map { _ in "x" }
    }
  }

  /// `test_tick3`:
  ///
  ///     AsyncTimerSequence(interval: .steps(3), clock: $0.clock).map { _ in "x" }
  ///     "--x--x-[;|]"
  @Test func tick3() throws {
    try validate(output: "--x--x-[;|]") {
      AsyncTimerSequence(interval: .steps(3), clock: $0.clock).map { _ in "x" }
    }
  }

  /// `test_tick2_event_skew3`:
  ///
  ///     AsyncTimerSequence(interval: .steps(2), clock: diagram.clock).map { [diagram] (_) -> String in
  ///       try? await diagram.clock.sleep(until: diagram.clock.now.advanced(by: .steps(3)))
  ///       return "x"
  ///     }
  ///     "----x--x-[;x|]"
  @Test func tick2EventSkew3() throws {
    try validate(output: "----x--x-[;x|]") { diagram in
      AsyncTimerSequence(interval: .steps(2), clock: diagram.clock).map { [diagram] (_) -> String in
        try? await diagram.clock.sleep(until: diagram.clock.now.advanced(by: .steps(3)))
        return "x"
      }
    }
  }
}
