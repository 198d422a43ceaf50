import MarbleTesting
import Signals
import Testing

@Suite struct MarbleSyntaxErrorTests {
  /// The error `parse` throws for `marbles` (a test failure if it throws none).
  func error(
    _ marbles: String, allowsSubscriptionPoint: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> MarbleSyntaxError? {
    #expect(throws: MarbleSyntaxError.self, sourceLocation: sourceLocation) {
      try Marble.parse(marbles, allowsSubscriptionPoint: allowsSubscriptionPoint)
    }
    do {
      _ = try Marble.parse(marbles, allowsSubscriptionPoint: allowsSubscriptionPoint)
      return nil
    } catch {
      return error
    }
  }

  func subscriptionError(_ marbles: String) -> MarbleSyntaxError? {
    do {
      _ = try Marble.parseSubscription(marbles)
      Issue.record("\(marbles) parsed")
      return nil
    } catch {
      return error
    }
  }

  func expect(
    _ error: MarbleSyntaxError?, column: Int, _ message: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(error?.message == message, sourceLocation: sourceLocation)
    #expect(error?.line == 1, sourceLocation: sourceLocation)
    #expect(error?.column == column, sourceLocation: sourceLocation)
  }

  // MARK: The description

  @Test func theDescriptionShowsTheLineWithACaretUnderTheColumn() {
    let error = error("--^-^--|")
    #expect(
      error?.description == """
        line 1, column 5: a second '^'; a marble has at most one subscription point (the first \
        is at column 3)
          --^-^--|
              ^
        """)
    #expect(error?.sourceLine == "--^-^--|")
  }

  @Test func theCaretCountsCharactersAndKeepsTabs() {
    do {
      _ = try Marble.parse("é\t🙂!", values: ["é": 1, "🙂": 2])
      Issue.record("parsed")
    } catch {
      #expect(error.column == 4)
      #expect(error.description.split(separator: "\n").last == "   \t ^")
    }
  }

  @Test func anErrorInsideALargerTextReportsItsLineAndColumnThere() {
    let line = "sub1:   --a-!"
    do {
      _ = try Marble.parse(
        "--a-!", error: TestError(), tick: .milliseconds(1), allowsSubscriptionPoint: true,
        position: Marble.SourcePosition(line: 3, column: 9, sourceLine: line))
      Issue.record("parsed")
    } catch {
      #expect(
        error
          == MarbleSyntaxError(
            message: "'!' marks an unsubscription and belongs only in subscription marbles",
            line: 3, column: 13, sourceLine: line))
      #expect(
        error.description == """
          line 3, column 13: '!' marks an unsubscription and belongs only in subscription marbles
            sub1:   --a-!
                        ^
          """)
    }
    do {
      _ = try Marble.parseSubscription(
        "^-^", tick: .milliseconds(1),
        position: Marble.SourcePosition(line: 2, column: 3, sourceLine: "s ^-^"))
      Issue.record("parsed")
    } catch {
      #expect(error.line == 2)
      #expect(error.column == 5)
      #expect(error.sourceLine == "s ^-^")
    }
  }

  // MARK: Groups

  @Test func anUnclosedGroupPointsAtItsOpening() {
    expect(error("-(ab"), column: 2, "'(' is never closed")
    expect(error("[a"), column: 1, "'[' is never closed")
  }

  @Test func aClosingParenthesisWithoutAGroupIsAnError() {
    expect(error("a)"), column: 2, "')' closes no group")
    expect(error("a]"), column: 2, "']' closes no group")
  }

  @Test func aGroupClosesWithItsOwnKindOfBracket() {
    expect(error("(a]"), column: 3, "']' cannot close the '(' at column 1; expected ')'")
    expect(error("-[a)"), column: 4, "')' cannot close the '[' at column 2; expected ']'")
  }

  @Test func groupsDoNotNest() {
    expect(
      error("(a(b))"), column: 3, "groups cannot nest: '(' inside the group opened at column 1")
    expect(
      error("-(a[b])"), column: 4, "groups cannot nest: '[' inside the group opened at column 2")
  }

  @Test func aGroupIsNeverEmpty() {
    expect(error("--()"), column: 3, "empty group '()'; a group holds at least one event")
    expect(error("( - )"), column: 1, "empty group '()'; a group holds at least one event")
    expect(error("[]"), column: 1, "empty group '[]'; a group holds at least one event")
    expect(subscriptionError("^()"), column: 2, "empty group '()'; a group holds a '^' or '!'")
  }

  @Test func aOneFrameGroupHoldsNoDash() {
    expect(error("[a-b]"), column: 3, "a '-' cannot go inside a one-frame group '[…]'")
  }

  @Test func aTimeProgressionCannotGoInsideAGroup() {
    expect(error("( 5ms a)"), column: 3, "a time progression ('5ms') cannot go inside a group")
  }

  // MARK: Subscription points

  @Test func aMarbleHasOneCaret() {
    expect(
      error("^-(^a)"), column: 4,
      "a second '^'; a marble has at most one subscription point (the first is at column 1)")
  }

  @Test func aColdMarbleHasNoCaret() {
    expect(
      error("--^-a", allowsSubscriptionPoint: false), column: 3,
      "'^' marks a hot signal's subscription point; a cold marble cannot have one")
  }

  @Test func anEventMarbleHasNoUnsubscriptionPoint() {
    expect(
      error("^--!"), column: 4,
      "'!' marks an unsubscription and belongs only in subscription marbles")
  }

  // MARK: Events

  @Test func nothingFollowsATerminalEvent() {
    expect(
      error("a|b"), column: 3,
      "'b' comes after the '|' at column 2; nothing may follow a terminal event")
    expect(
      error("-#-|"), column: 4,
      "'|' comes after the '#' at column 2; nothing may follow a terminal event")
    expect(
      error("(|a)"), column: 3,
      "'a' comes after the '|' at column 2; nothing may follow a terminal event")
    expect(
      error("a|#"), column: 3,
      "'#' comes after the '|' at column 2; nothing may follow a terminal event")
  }

  @Test func aFrameOrACaretAfterATerminalEventIsFine() throws {
    #expect(try Marble.parse("-|--^-") == [.completed(-3)] as [Recorded<Event<String, TestError>>])
  }

  @Test func everyValueCharacterMustBeAKeyOfTheMap() {
    do {
      _ = try Marble.parse("-a-b|", values: ["a": 1])
      Issue.record("parsed")
    } catch {
      expect(error, column: 4, "'b' has no value: it is not a key of the values: map")
    }
  }

  @Test func aCharacterOutsideTheLanguageIsAnError() {
    expect(
      error("a=b"), column: 2,
      "unexpected character '='; a value is a letter, a digit, or a key of the values: map")
    expect(
      error("--."), column: 3,
      "unexpected character '.'; a value is a letter, a digit, or a key of the values: map")
  }

  @Test func aMarbleIsOneLine() {
    expect(error("a\nb"), column: 2, "a marble is one line; found a line break")
  }

  // MARK: Time progression

  @Test func aMalformedTimeProgressionIsAnError() {
    expect(
      error("a 1.5 b"), column: 3,
      "malformed time progression '1.5': expected a unit (ms, s or m) after the number")
    expect(error("a 1. b"), column: 3, "malformed time progression '1.': expected digits after '.'")
    expect(
      error("a 10ms|"), column: 3,
      "malformed time progression '10ms|': expected a space after the unit")
    expect(
      error("1.5msa"), column: 1,
      "malformed time progression '1.5msa': expected a space after the unit")
  }

  @Test func aNegativeTimeProgressionIsAnError() {
    expect(
      error("a -5ms b"), column: 3, "negative time progression '-5ms'; time only moves forward")
    expect(error("-1.5s"), column: 1, "negative time progression '-1.5s'; time only moves forward")
  }

  @Test func aTimeProgressionTooLongForTheClockIsAnError() {
    expect(
      error("a 999999999999999999999999999999999m b"), column: 3,
      "time progression '999999999999999999999999999999999m' is too long")
    expect(
      error("a 9223372036854775808ms"), column: 3,
      "time progression '9223372036854775808ms' is too long")
    expect(
      error("a 9223372036854775807ms b"), column: 25,
      "the marble runs past the last tick (Int.max)")
  }

  @Test func aLongTimeProgressionWithNothingAfterItIsFine() throws {
    #expect(try Marble.parse("a 9223372036854775807ms") == [.next(0, "a")])
    #expect(try Marble.parse("9223372036854775807ms") == [])
  }

  // MARK: Subscription marbles

  @Test func aSubscriptionMarbleNeedsACaret() {
    let message = "a subscription marble needs a '^' (or a '!', subscribing at frame 0)"
    expect(subscriptionError("----"), column: 1, message)
    expect(subscriptionError(""), column: 1, message)
  }

  @Test func aSubscriptionMarbleHasOneCaretAndOneBang() {
    expect(
      subscriptionError("^-^"), column: 3,
      "a second '^'; a marble has at most one subscription point (the first is at column 1)")
    expect(
      subscriptionError("^!-!"), column: 4,
      "a second '!'; a subscription marble has at most one unsubscription point")
  }

  @Test func aSubscriptionEndsAfterItStarts() {
    expect(
      subscriptionError("-!-^"), column: 4,
      "'^' comes after the '!' at column 2; a subscription starts before it ends")
  }

  /// RxJS's `expectObservable(source, "-----!")` subscribes at frame 0 and disposes at frame 5.
  @Test func aBangWithoutACaretSubscribesAtFrameZero() throws {
    #expect(try Marble.parseSubscription("-----!") == Subscription(subscribed: 0, disposed: 5))
    #expect(try Marble.parseSubscription("!") == Subscription(subscribed: 0, disposed: 0))
    #expect(try Marble.parseSubscription("-- 5ms !") == Subscription(subscribed: 0, disposed: 7))
  }

  @Test func aSubscriptionMarbleHoldsNoEvents() {
    let message =
      "does not belong in a subscription marble, which holds only '-', '^', '!', groups and time "
      + "progressions"
    expect(subscriptionError("^a!"), column: 2, "'a' " + message)
    expect(subscriptionError("^-|"), column: 3, "'|' " + message)
    expect(subscriptionError("#"), column: 1, "'#' " + message)
  }

  @Test func aSubscriptionMarbleChecksTimeProgressionsToo() {
    expect(
      subscriptionError("^ 2.5 !"), column: 3,
      "malformed time progression '2.5': expected a unit (ms, s or m) after the number")
    expect(
      subscriptionError("^ -3ms !"), column: 3,
      "negative time progression '-3ms'; time only moves forward")
  }
}
