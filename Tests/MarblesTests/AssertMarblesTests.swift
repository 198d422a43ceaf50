import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

@Suite struct AssertMarblesTests {
  func recording(_ marbles: String) throws -> TestSubscriber<String, TestError> {
    let scheduler = TestScheduler()
    let subscriber = scheduler.record(try scheduler.cold(marbles))
    scheduler.run()
    return subscriber
  }

  @Test func passesWhenTheRecorderMatchesTheMarble() throws {
    assertMarbles(try recording("--a--b--|"), "--a--b--|")
    assertMarbles(try recording("-(ab)-#"), "-(ab)-#")
  }

  @Test func aDifferenceIsShownAsTwoAlignedRowsWithACaretAndWords() throws {
    let subscriber = try recording("--a--b-|")
    let line = #line + 2
    withKnownIssue {
      assertMarbles(subscriber, "--a-b--|")
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          """
          marbles differ at frame 4
            expected  --a-b--|
            actual    --a--b-|
                          ^ expected next("b") at frame 4, got nothing; next("b") came at frame 5
          """
        ]
    }
  }

  /// The sentence names where the unexpected value was expected among the events not matched
  /// yet: frame 4, not frame 2, whose `a` came.
  @Test func anUnexpectedValueIsSaidToBeExpectedWhereNoneCameYet() throws {
    let subscriber = try recording("--aa----(a|)")
    withKnownIssue {
      assertMarbles(subscriber, "--a-a---a|")
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        marbles differ at frame 3
          expected  --a-a---a|
          actual    --aa----(a|)
                       ^ got unexpected next("a") at frame 3; it was expected at frame 4
        """
      ]
    }
  }

  /// A missing value is said to come where an actual event not matched yet came.
  @Test func aMissingValueIsSaidToComeWhereAnUnmatchedOneCame() throws {
    let subscriber = try recording("--a-----a|")
    withKnownIssue {
      assertMarbles(subscriber, "--a-a---a|")
    } matching: { issue in
      issue.comments.first?.rawValue.contains(
        #"^ expected next("a") at frame 4, got nothing; next("a") came at frame 8"#) == true
    }
  }

  /// With a time progression in the expected row, the caret stands under the differing frame's
  /// column, counted with the scheduler's tick (10 ms: `440ms` is 44 frames).
  @Test func theCaretStandsUnderTheDifferingFrameAfterATimeProgression() throws {
    let scheduler = TestScheduler(tick: .milliseconds(10))
    let subscriber = scheduler.record(try scheduler.cold("e 450ms x"))
    scheduler.run()
    withKnownIssue {
      assertMarbles(subscriber, "e 440ms x")
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        marbles differ at frame 45
          expected  e 440ms x
          actual    e---------------------------------------------x
                            ^ expected next("x") at frame 45, got nothing; next("x") came at frame 46
        """
      ]
    }
  }

  struct User: Equatable, Sendable, CustomStringConvertible {
    var id: Int
    var description: String { "User(id: \(id))" }
  }

  /// What `assertMarbles(recorder, "-a-b|", values: ["a": User(id: 1), "b": User(id: 2)])`
  /// reports for a recorder of `marbles` (where `c` is `User(id: 3)`).
  func usersFailure(_ marbles: String) throws -> [String] {
    let scheduler = TestScheduler()
    let all: [Character: User] = ["a": User(id: 1), "b": User(id: 2), "c": User(id: 3)]
    let subscriber = scheduler.record(try scheduler.cold(marbles, values: all, error: TestError()))
    scheduler.run()
    let messages = Mutex<[String]>([])
    withKnownIssue {
      assertMarbles(subscriber, "-a-b|", values: ["a": User(id: 1), "b": User(id: 2)])
    } matching: { issue in
      messages.withLock { $0 += issue.comments.map(\.rawValue) }
      return true
    }
    return messages.withLock { $0 }
  }

  /// Values that are not characters print through a legend; a value without a key gets a spare
  /// letter that is no key (`c`, not `b`, which the expected row already uses).
  @Test(arguments: [
    ("-a-a|", "got next(User(id: 1))", "where a = User(id: 1), b = User(id: 2)"),
    ("-a-c|", "got next(User(id: 3))", "where a = User(id: 1), b = User(id: 2), c = User(id: 3)"),
  ])
  func valuesThatAreNotCharactersPrintThroughALegend(
    marbles: String, got: String, legend: String
  ) throws {
    #expect(
      try usersFailure(marbles) == [
        """
        marbles differ at frame 3
          expected  -a-b|
          actual    \(marbles)
                       ^ expected next(User(id: 2)) at frame 3, \(got)
          \(legend)
        """
      ])
  }

  @Test func aMarbleThatCannotBeReadIsReportedWithACaret() throws {
    let subscriber = try recording("-a|")
    withKnownIssue {
      assertMarbles(subscriber, "-a|b")
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix("marble cannot be read: line 1, column 4: ") == true
        && issue.comments.first?.rawValue.hasSuffix("\n  -a|b\n     ^") == true
    }
  }

  @Test func subscriptionMarblesAreCompared() throws {
    let scheduler = TestScheduler()
    let hot = try scheduler.hot("--a--b--|")
    _ = scheduler.record(hot, subscribeAt: 0, disposeAt: 6)
    _ = scheduler.record(hot, subscribeAt: 2, disposeAt: 5)
    scheduler.run()
    assertSubscriptions(hot, "^-----!", "--^--!")
    let line = #line + 2
    withKnownIssue {
      assertSubscriptions(hot, "^-----!")
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          """
          subscriptions differ
            expected  ^-----!
            actual    ^-----!
                      --^--!
            expected 1 subscription, got 2; unexpected (2, 5)
          """
        ]
    }
  }

  @Test func valuesKeyedByStringsWorkInAssertionsAndALongKeyIsReportedByName() throws {
    let scheduler = TestScheduler()
    let values = ["x": 10, "y": 20]
    let source: TestSignal<Int, Never> = try scheduler.hot("-x-y|", values: values)
    let recorder = scheduler.record(source)
    scheduler.expect(source).toBe("-x-y|", values: values)
    scheduler.flush()
    assertMarbles(recorder, "-x-y|", values: values)
    let line = #line + 2
    withKnownIssue {
      assertMarbles(recorder, "-x-y|", values: ["x": 10, "yy": 20])
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue.hasPrefix(
          #"marble cannot be read: line 1, column 1: the values: key "yy" is 2 characters"#)
          == true
    }
  }
}
