import MarbleTesting
import Signals
import Testing

@Suite struct FailureMessageHigherOrderTests {
  typealias Inner = RecordedSignal<String, TestError>

  func message(
    _ marbles: String, inner: [Character: String], actual: [Recorded<Event<Inner, TestError>>]
  ) throws -> String? {
    try FailureMessage.higherOrderMarbles(
      expectedMarble: marbles, inner: inner, actual: actual, values: Marble.characterValues,
      error: TestError())
  }

  let actual: [Recorded<Event<Inner, TestError>>] = [
    .next(2, Inner(events: [.next(1, "x"), .completed(2)])),
    .next(5, Inner(events: [.next(1, "y"), .completed(2)])),
    .completed(6),
  ]

  @Test func matchingInnerSignalsGiveNoMessage() throws {
    #expect(try message("--a--b|", inner: ["a": "-x|", "b": "-y|"], actual: actual) == nil)
  }

  @Test func anInnerSignalThatDiffersIsNamedAndDrawnUnderTheFrameItWasSentAt() throws {
    #expect(
      try message("--a--b|", inner: ["a": "-x|", "b": "--y|"], actual: actual) == """
        inner signal `b` sent at frame 5 differs at its frame 1
          outer     --a--b|
          expected       --y|
          actual         -y|
                          ^ got unexpected next("y") at frame 1; it was expected at frame 2
        """)
  }

  @Test func outerEventsThatDifferAreDrawnWithTheKeysAndNewLettersInALegend() throws {
    #expect(
      try message("--a-b-|", inner: ["a": "-x|", "b": "--y|"], actual: actual) == """
        marbles differ at frame 4
          expected  --a-b-|
          actual    --a--c|
                        ^ expected next("b") at frame 4, got nothing; it never came
          where a = -x|, b = --y|, c = -y|
        """)
  }

  @Test func anInnerSignalSentInsteadOfAnotherIsAnInnerDifference() throws {
    #expect(
      try message("--a--a|", inner: ["a": "-x|", "b": "-y|"], actual: actual) == """
        inner signal `a` sent at frame 5 differs at its frame 1
          outer     --a--a|
          expected       -x|
          actual         -y|
                          ^ expected next("x") at frame 1, got next("y")
        """)
  }

  @Test func anInnerSignalMatchingAnotherKeyIsDrawnAsThatKeyInTheOuterRow() throws {
    #expect(
      try message("--a--a-|", inner: ["a": "-x|", "b": "-y|"], actual: actual) == """
        marbles differ at frame 5
          expected  --a--a-|
          actual    --a--b|
                         ^ expected next("a") at frame 5, got next("b")
          where a = -x|, b = -y|
        """)
  }

  @Test func innerValuesAreDrawnWithTheirKeysAndTheirLegend() throws {
    struct User: Equatable, Sendable, CustomStringConvertible {
      var id: Int
      var description: String { "User(id: \(id))" }
    }
    let users: [Character: User] = ["u": User(id: 1), "v": User(id: 2)]
    let actual: [Recorded<Event<RecordedSignal<User, TestError>, TestError>>] = [
      .next(1, RecordedSignal(events: [.next(0, User(id: 1)), .next(1, User(id: 1))]))
    ]
    #expect(
      try FailureMessage.higherOrderMarbles(
        expectedMarble: "-a", inner: ["a": "uv"], actual: actual, values: users,
        error: TestError()) == """
          inner signal `a` sent at frame 1 differs at its frame 1
            outer     -a
            expected   uv
            actual     uu
                        ^ expected next(User(id: 2)) at frame 1, got next(User(id: 1))
            where u = User(id: 1), v = User(id: 2)
          """)
  }
}
