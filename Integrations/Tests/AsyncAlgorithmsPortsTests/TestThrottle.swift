import AsyncAlgorithms
import Testing

/// swift-async-algorithms 1.1.4 `Tests/AsyncAlgorithmsTests/TestThrottle.swift`: every
/// `validate { … }` block, its diagrams verbatim, run by `validate` (see `Validation.swift`).
@Suite struct TestThrottle {
  /// `test_rate_0`:
  ///
  ///     "abcdefghijk|"
  ///     $0.inputs[0]._throttle(for: .steps(0), clock: $0.clock)
  ///     "abcdefghijk|"
  @Test func rate0() throws {
    try validate("abcdefghijk|", output: "abcdefghijk|") {
      $0.inputs[0]._throttle(for: .steps(0), clock: $0.clock)
    }
  }

  /// `test_rate_0_leading_edge`:
  ///
  ///     "abcdefghijk|"
  ///     $0.inputs[0]._throttle(for: .steps(0), clock: $0.clock, latest: false)
  ///     "abcdefghijk|"
  @Test func rate0LeadingEdge() throws {
    try validate("abcdefghijk|", output: "abcdefghijk|") {
      $0.inputs[0]._throttle(for: .steps(0), clock: $0.clock, latest: false)
    }
  }

  /// `test_rate_1`:
  ///
  ///     "abcdefghijk|"
  ///     $0.inputs[0]._throttle(for: .steps(1), clock: $0.clock)
  ///     "abcdefghijk|"
  @Test func rate1() throws {
    try validate("abcdefghijk|", output: "abcdefghijk|") {
      $0.inputs[0]._throttle(for: .steps(1), clock: $0.clock)
    }
  }

  /// `test_rate_1_leading_edge`:
  ///
  ///     "abcdefghijk|"
  ///     $0.inputs[0]._throttle(for: .steps(1), clock: $0.clock, latest: false)
  ///     "abcdefghijk|"
  @Test func rate1LeadingEdge() throws {
    try validate("abcdefghijk|", output: "abcdefghijk|") {
      $0.inputs[0]._throttle(for: .steps(1), clock: $0.clock, latest: false)
    }
  }

  /// `test_rate_2`:
  ///
  ///     "abcdefghijk|"
  ///     $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
  ///     "a-c-e-g-i-k|"
  @Test func rate2() throws {
    try validate("abcdefghijk|", output: "a-c-e-g-i-k|") {
      $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
    }
  }

  /// `test_rate_2_leading_edge`:
  ///
  ///     "abcdefghijk|"
  ///     $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock, latest: false)
  ///     "a-b-d-f-h-j|"
  @Test func rate2LeadingEdge() throws {
    try validate("abcdefghijk|", output: "a-b-d-f-h-j|") {
      $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock, latest: false)
    }
  }

  /// `test_rate_3`:
  ///
  ///     "abcdefghijk|"
  ///     $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock)
  ///     "a--d--g--j--[k|]"
  @Test func rate3() throws {
    try validate("abcdefghijk|", output: "a--d--g--j--[k|]") {
      $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock)
    }
  }

  /// `test_rate_3_leading_edge`:
  ///
  ///     "abcdefghijk|"
  ///     $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock, latest: false)
  ///     "a--b--e--h--[k|]"
  @Test func rate3LeadingEdge() throws {
    try validate("abcdefghijk|", output: "a--b--e--h--[k|]") {
      $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock, latest: false)
    }
  }

  /// `test_throwing`:
  ///
  ///     "abcdef^hijk|"
  ///     $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
  ///     "a-c-e-^"
  @Test func throwing() throws {
    try validate("abcdef^hijk|", output: "a-c-e-^") {
      $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
    }
  }

  /// `test_throwing_leading_edge`:
  ///
  ///     "abcdef^hijk|"
  ///     $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock, latest: false)
  ///     "a-b-d-^"
  @Test func throwingLeadingEdge() throws {
    try validate("abcdef^hijk|", output: "a-b-d-^") {
      $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock, latest: false)
    }
  }

  /// `test_emission_2_rate_1`:
  ///
  ///     "-a-b-c-d-e-f-g-h-i-j-k-|"
  ///     $0.inputs[0]._throttle(for: .steps(1), clock: $0.clock)
  ///     "-a-b-c-d-e-f-g-h-i-j-k-|"
  @Test func emission2Rate1() throws {
    try validate("-a-b-c-d-e-f-g-h-i-j-k-|", output: "-a-b-c-d-e-f-g-h-i-j-k-|") {
      $0.inputs[0]._throttle(for: .steps(1), clock: $0.clock)
    }
  }

  /// `test_emission_2_rate_2`:
  ///
  ///     "-a-b-c-d-e-f-g-h-i-j-k-|"
  ///     $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
  ///     "-a-b-c-d-e-f-g-h-i-j-k-|"
  @Test func emission2Rate2() throws {
    try validate("-a-b-c-d-e-f-g-h-i-j-k-|", output: "-a-b-c-d-e-f-g-h-i-j-k-|") {
      $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
    }
  }

  /// `test_emission_3_rate_2`:
  ///
  ///     "--a--b--c--d--e--f--g|"
  ///     $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
  ///     "--a--b--c--d--e--f--g|"
  @Test func emission3Rate2() throws {
    try validate("--a--b--c--d--e--f--g|", output: "--a--b--c--d--e--f--g|") {
      $0.inputs[0]._throttle(for: .steps(2), clock: $0.clock)
    }
  }

  /// `test_emission_2_rate_3`:
  ///
  ///     "-a-b-c-d-e-f-g-h-i-j-k-|"
  ///     $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock)
  ///     "-a---c---e---g---i---k-|"
  @Test func emission2Rate3() throws {
    try validate("-a-b-c-d-e-f-g-h-i-j-k-|", output: "-a---c---e---g---i---k-|") {
      $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock)
    }
  }

  /// `test_trailing_delay_without_latest`:
  ///
  ///     "abcdefghijkl|"
  ///     $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock, latest: false)
  ///     "a--b--e--h--[k|]"
  @Test func trailingDelayWithoutLatest() throws {
    try validate("abcdefghijkl|", output: "a--b--e--h--[k|]") {
      $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock, latest: false)
    }
  }

  /// `test_trailing_delay_with_latest`:
  ///
  ///     "abcdefghijkl|"
  ///     $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock, latest: true)
  ///     "a--d--g--j--[l|]"
  @Test func trailingDelayWithLatest() throws {
    try validate("abcdefghijkl|", output: "a--d--g--j--[l|]") {
      $0.inputs[0]._throttle(for: .steps(3), clock: $0.clock, latest: true)
    }
  }
}
