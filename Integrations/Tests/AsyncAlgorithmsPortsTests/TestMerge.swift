import AsyncAlgorithms
import Testing

/// swift-async-algorithms 1.1.4 `Tests/AsyncAlgorithmsTests/TestMerge.swift`: every
/// `validate { … }` block, its diagrams verbatim, run by `validate` (see `Validation.swift`).
@Suite struct TestMerge {
  /// `TestMerge2.test_merge_makes_sequence_with_ordered_elements_when_sources_follow_a_timeline`:
  ///
  ///     "a-c-e-g-|"
  ///     "-b-d-f-h"
  ///     merge($0.inputs[0], $0.inputs[1])
  ///     "abcdefgh|"
  @Test func twoSourcesMergeMakesSequenceWithOrderedElementsWhenSourcesFollowATimeline() throws {
    try validate("a-c-e-g-|", "-b-d-f-h", output: "abcdefgh|") {
      merge($0.inputs[0], $0.inputs[1])
    }
  }

  /// `TestMerge3.test_merge_makes_sequence_with_ordered_elements_when_sources_follow_a_timeline`:
  ///
  ///     "a---e---|"
  ///     "-b-d-f-h|"
  ///     "--c---g-|"
  ///     merge($0.inputs[0], $0.inputs[1], $0.inputs[2])
  ///     "abcdefgh|"
  @Test func threeSourcesMergeMakesSequenceWithOrderedElementsWhenSourcesFollowATimeline() throws {
    try validate("a---e---|", "-b-d-f-h|", "--c---g-|", output: "abcdefgh|") {
      merge($0.inputs[0], $0.inputs[1], $0.inputs[2])
    }
  }
}
