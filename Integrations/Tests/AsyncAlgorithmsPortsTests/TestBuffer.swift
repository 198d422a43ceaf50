import AsyncAlgorithms
import Testing

/// swift-async-algorithms 1.1.4 `Tests/AsyncAlgorithmsTests/TestBuffer.swift`: every
/// `validate { … }` block, its diagrams verbatim, run by `validate` (see `Validation.swift`).
@Suite struct TestBuffer {
  /// `test_given_a_base_sequence_when_bufferingOldest_then_the_policy_is_applied`:
  ///
  ///     "X-12-   34-    5   |"
  ///     $0.inputs[0].buffer(policy: .bufferingOldest(2))
  ///     "X,,,[1,],,[2,],[3,][5,]|"
  @Test func givenABaseSequenceWhenBufferingOldestThenThePolicyIsApplied() throws {
    try validate("X-12-   34-    5   |", output: "X,,,[1,],,[2,],[3,][5,]|") {
      $0.inputs[0].buffer(policy: .bufferingOldest(2))
    }
  }

  /// `test_given_a_base_sequence_when_bufferingOldest_with_0_limit_then_the_policy_is_transparent`:
  ///
  ///     "X-12-   34-    5   |"
  ///     $0.inputs[0].buffer(policy: .bufferingOldest(0))
  ///     "X-12-   34-    5   |"
  @Test func givenABaseSequenceWhenBufferingOldestWith0LimitThenThePolicyIsTransparent() throws {
    try validate("X-12-   34-    5   |", output: "X-12-   34-    5   |") {
      $0.inputs[0].buffer(policy: .bufferingOldest(0))
    }
  }

  /// `test_given_a_base_sequence_when_bufferingOldest_at_slow_pace_then_no_element_is_dropped`:
  ///
  ///     "X-12   3   4   5   |"
  ///     $0.inputs[0].buffer(policy: .bufferingOldest(2))
  ///     "X,,[1,][2,][3,][45]|"
  @Test func givenABaseSequenceWhenBufferingOldestAtSlowPaceThenNoElementIsDropped() throws {
    try validate("X-12   3   4   5   |", output: "X,,[1,][2,][3,][45]|") {
      $0.inputs[0].buffer(policy: .bufferingOldest(2))
    }
  }

  /// `test_given_a_failable_base_sequence_when_bufferingOldest_then_the_failure_is_forwarded`:
  ///
  ///     "X-12345^"
  ///     $0.inputs[0].buffer(policy: .bufferingOldest(2))
  ///     "X,,,,,,[12^]"
  @Test func givenAFailableBaseSequenceWhenBufferingOldestThenTheFailureIsForwarded() throws {
    try validate("X-12345^", output: "X,,,,,,[12^]") {
      $0.inputs[0].buffer(policy: .bufferingOldest(2))
    }
  }

  /// `test_given_a_base_sequence_when_bufferingNewest_then_the_policy_is_applied`:
  ///
  ///     "X-12-   34    -5|"
  ///     $0.inputs[0].buffer(policy: .bufferingLatest(2))
  ///     "X,,,[1,],,[3,],[4,][5,]|"
  @Test func givenABaseSequenceWhenBufferingNewestThenThePolicyIsApplied() throws {
    try validate("X-12-   34    -5|", output: "X,,,[1,],,[3,],[4,][5,]|") {
      $0.inputs[0].buffer(policy: .bufferingLatest(2))
    }
  }

  /// `test_given_a_base_sequence_when_bufferingNewest_with_limit_0_then_the_policy_is_transparent`:
  ///
  ///     "X-12-   34    -5|"
  ///     $0.inputs[0].buffer(policy: .bufferingLatest(0))
  ///     "X-12-   34    -5|"
  @Test func givenABaseSequenceWhenBufferingNewestWithLimit0ThenThePolicyIsTransparent() throws {
    try validate("X-12-   34    -5|", output: "X-12-   34    -5|") {
      $0.inputs[0].buffer(policy: .bufferingLatest(0))
    }
  }

  /// `test_given_a_base_sequence_when_bufferingNewest_at_slow_pace_then_no_element_is_dropped`:
  ///
  ///     "X-12   3   4   5   |"
  ///     $0.inputs[0].buffer(policy: .bufferingLatest(2))
  ///     "X,,[1,][2,][3,][45]|"
  @Test func givenABaseSequenceWhenBufferingNewestAtSlowPaceThenNoElementIsDropped() throws {
    try validate("X-12   3   4   5   |", output: "X,,[1,][2,][3,][45]|") {
      $0.inputs[0].buffer(policy: .bufferingLatest(2))
    }
  }

  /// `test_given_a_failable_base_sequence_when_bufferingNewest_then_the_failure_is_forwarded`:
  ///
  ///     "X-12345^"
  ///     $0.inputs[0].buffer(policy: .bufferingLatest(2))
  ///     "X,,,,,,[45^]"
  @Test func givenAFailableBaseSequenceWhenBufferingNewestThenTheFailureIsForwarded() throws {
    try validate("X-12345^", output: "X,,,,,,[45^]") {
      $0.inputs[0].buffer(policy: .bufferingLatest(2))
    }
  }

  /// `test_given_a_base_sequence_when_bounded_with_limit_0_then_the_policy_is_transparent`:
  ///
  ///     "X-12-   34    -5|"
  ///     $0.inputs[0].buffer(policy: .bounded(0))
  ///     "X-12-   34    -5|"
  @Test func givenABaseSequenceWhenBoundedWithLimit0ThenThePolicyIsTransparent() throws {
    try validate("X-12-   34    -5|", output: "X-12-   34    -5|") {
      $0.inputs[0].buffer(policy: .bounded(0))
    }
  }
}
