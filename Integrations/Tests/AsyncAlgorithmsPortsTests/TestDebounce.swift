import AsyncAlgorithms
import Testing

/// swift-async-algorithms 1.1.4 `Tests/AsyncAlgorithmsTests/TestDebounce.swift`: every
/// `validate { … }` block, its diagrams verbatim, run by `validate` (see `Validation.swift`).
@Suite struct TestDebounce {
  /// `test_delayingValues`:
  ///
  ///     "abcd----e---f-g----|"
  ///     $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
  ///     "------d----e-----g-|"
  @Test func delayingValues() throws {
    try validate("abcd----e---f-g----|", output: "------d----e-----g-|") {
      $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
    }
  }

  /// `test_delayingValues_dangling_last`:
  ///
  ///     "abcd----e---f-g-|"
  ///     $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
  ///     "------d----e----[g|]"
  @Test func delayingValuesDanglingLast() throws {
    try validate("abcd----e---f-g-|", output: "------d----e----[g|]") {
      $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
    }
  }

  /// `test_finishDoesntDebounce`:
  ///
  ///     "a|"
  ///     $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
  ///     "-[a|]"
  @Test func finishDoesntDebounce() throws {
    try validate("a|", output: "-[a|]") {
      $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
    }
  }

  /// `test_throwDoesntDebounce`:
  ///
  ///     "a^"
  ///     $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
  ///     "-^"
  @Test func throwDoesntDebounce() throws {
    try validate("a^", output: "-^") {
      $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
    }
  }

  /// `test_noValues`:
  ///
  ///     "----|"
  ///     $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
  ///     "----|"
  @Test func noValues() throws {
    try validate("----|", output: "----|") {
      $0.inputs[0].debounce(for: .steps(3), clock: $0.clock)
    }
  }
}
