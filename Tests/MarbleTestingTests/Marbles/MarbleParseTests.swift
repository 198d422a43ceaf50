import MarbleTesting
import Signals
import Testing

@Suite struct MarbleParseTests {
  typealias E = Event<String, TestError>

  struct Boom: Error, Equatable {}

  // MARK: Tokens

  @Test func aDashIsOneFrameAndAValueStandsForItself() throws {
    #expect(try Marble.parse("-a--b") == [.next(1, "a"), .next(4, "b")] as [Recorded<E>])
    #expect(try Marble.parse("") == [])
    #expect(try Marble.parse("----") == [])
  }

  @Test func spacesTakeNoTime() throws {
    #expect(try Marble.parse("  a - b  ") == [.next(0, "a"), .next(2, "b")] as [Recorded<E>])
    #expect(try Marble.parse("a\t-b") == [.next(0, "a"), .next(2, "b")] as [Recorded<E>])
  }

  @Test func lettersAndDigitsAreValues() throws {
    #expect(
      try Marble.parse("aZ07é") == [
        .next(0, "a"), .next(1, "Z"), .next(2, "0"), .next(3, "7"), .next(4, "é"),
      ] as [Recorded<E>])
  }

  @Test func aBarCompletes() throws {
    #expect(try Marble.parse("-a-|") == [.next(1, "a"), .completed(3)] as [Recorded<E>])
  }

  @Test func aHashFailsWithATestErrorByDefault() throws {
    #expect(try Marble.parse("--#") == [.error(2, TestError())] as [Recorded<E>])
    #expect(
      try Marble.parse("-a#", values: ["a": 1])
        == [.next(1, 1), .error(2, TestError())] as [Recorded<Event<Int, TestError>>])
  }

  @Test func aHashFailsWithTheGivenError() throws {
    #expect(
      try Marble.parse("-a-#", values: ["a": 1], error: Boom())
        == [.next(1, 1), .error(3, Boom())] as [Recorded<Event<Int, Boom>>])
    #expect(
      try Marble.parse("a#", error: Boom())
        == [.next(0, "a"), .error(1, Boom())] as [Recorded<Event<String, Boom>>])
  }

  @Test func valuesComeFromTheMap() throws {
    #expect(
      try Marble.parse("-a-b-|", values: ["a": 10, "b": 20])
        == [.next(1, 10), .next(3, 20), .completed(5)] as [Recorded<Event<Int, TestError>>])
  }

  @Test func anyKeyOfTheMapIsAValue() throws {
    #expect(
      try Marble.parse("*-@", values: ["*": 1, "@": 2])
        == [.next(0, 1), .next(2, 2)] as [Recorded<Event<Int, TestError>>])
  }

  // MARK: Groups

  @Test func aGroupPutsItsEventsInOneFrameAndAdvancesByItsLength() throws {
    // RxJS: "(ab)c" puts a and b at frame 0 and c at frame 4.
    #expect(
      try Marble.parse("(ab)c") == [.next(0, "a"), .next(0, "b"), .next(4, "c")] as [Recorded<E>])
    #expect(
      try Marble.parse("-(abc)-d") == [
        .next(1, "a"), .next(1, "b"), .next(1, "c"), .next(7, "d"),
      ] as [Recorded<E>])
  }

  @Test func aGroupMayEndWithATerminalEvent() throws {
    #expect(try Marble.parse("--(a|)") == [.next(2, "a"), .completed(2)] as [Recorded<E>])
    #expect(try Marble.parse("(#)") == [.error(0, TestError())] as [Recorded<E>])
  }

  @Test func spacesInAGroupTakeNoTimeAndDashesDo() throws {
    #expect(try Marble.parse("(a b)c") == [.next(0, "a"), .next(0, "b"), .next(4, "c")])
    // As in RxJS, a '-' inside a group still advances time (but the events stay at its frame).
    #expect(try Marble.parse("(a-b)c") == [.next(0, "a"), .next(0, "b"), .next(5, "c")])
  }

  @Test func aBracketGroupTakesOneFrame() throws {
    #expect(
      try Marble.parse("[ab]c") == [.next(0, "a"), .next(0, "b"), .next(1, "c")] as [Recorded<E>])
    #expect(
      try Marble.parse("-[a|]") == [.next(1, "a"), .completed(1)] as [Recorded<E>])
  }

  // MARK: Subscription point

  @Test func aCaretIsTimeZeroAndEarlierEventsAreNegative() throws {
    #expect(
      try Marble.parse("--a-^-b--|") == [.next(-2, "a"), .next(2, "b"), .completed(5)]
        as [Recorded<E>])
    #expect(try Marble.parse("^") == [])
    #expect(try Marble.parse("^a") == [.next(1, "a")] as [Recorded<E>])
  }

  @Test func spacesBeforeTheCaretDoNotShiftFrameZero() throws {
    // RxJS takes the caret's character index (4) as its frame, putting `a` at -4.
    #expect(try Marble.parse("a   ^ b") == [.next(-1, "a"), .next(1, "b")] as [Recorded<E>])
    #expect(try Marble.parse("   a ^") == [.next(-1, "a")] as [Recorded<E>])
  }

  @Test func groupsAndTimeProgressionsBeforeTheCaretCountInFrames() throws {
    #expect(
      try Marble.parse("(ab)^c") == [.next(-4, "a"), .next(-4, "b"), .next(1, "c")]
        as [Recorded<E>])
    #expect(try Marble.parse("a 5ms ^b") == [.next(-6, "a"), .next(1, "b")] as [Recorded<E>])
  }

  @Test func aCaretInAGroupMarksTheGroupsFrame() throws {
    #expect(try Marble.parse("-(^a)b") == [.next(0, "a"), .next(4, "b")] as [Recorded<E>])
    #expect(try Marble.parse("a[^b]c") == [.next(-1, "a"), .next(0, "b"), .next(1, "c")])
  }

  // MARK: Time progression

  @Test func timeProgressionAdvancesByItsLengthInTicks() throws {
    // The RxJS documentation's example (with the frames its issue #5988 corrected).
    #expect(
      try Marble.parse("a 9ms b 9s c|") == [
        .next(0, "a"), .next(10, "b"), .next(9011, "c"), .completed(9012),
      ] as [Recorded<E>])
    #expect(try Marble.parse("1.5s a") == [.next(1500, "a")] as [Recorded<E>])
    #expect(try Marble.parse("2m a") == [.next(120_000, "a")] as [Recorded<E>])
    #expect(try Marble.parse("a 0ms b") == [.next(0, "a"), .next(1, "b")] as [Recorded<E>])
    #expect(try Marble.parse("a  3ms\t3ms  b") == [.next(0, "a"), .next(7, "b")])
  }

  @Test func aTimeProgressionAtTheEndOfTheStringIsATimeProgression() throws {
    // RxJS needs a space after the unit and reads this as the values a, 1, 0, m, s.
    #expect(try Marble.parse("a 10ms") == [.next(0, "a")] as [Recorded<E>])
    #expect(try Marble.parseSubscription("^ 10ms") == Subscription(0))
  }

  @Test func digitsThatDoNotStartAWordAreValues() throws {
    #expect(
      try Marble.parse("a10ms b") == [
        .next(0, "a"), .next(1, "1"), .next(2, "0"), .next(3, "m"), .next(4, "s"), .next(5, "b"),
      ] as [Recorded<E>])
  }

  @Test func digitsWithoutAUnitOrFollowedByALetterAreValues() throws {
    #expect(try Marble.parse("12 a") == [.next(0, "1"), .next(1, "2"), .next(2, "a")])
    // As in RxJS: a unit followed by a letter is no time progression.
    #expect(
      try Marble.parse("10msa") == [
        .next(0, "1"), .next(1, "0"), .next(2, "m"), .next(3, "s"), .next(4, "a"),
      ] as [Recorded<E>])
    #expect(try Marble.parse("a 1 b") == [.next(0, "a"), .next(1, "1"), .next(2, "b")])
  }

  @Test func timeProgressionUsesTheTickAndRoundsUp() throws {
    let tenMilliseconds = Duration.milliseconds(10)
    #expect(
      try Marble.parse("a 100ms b", tick: tenMilliseconds) == [.next(0, "a"), .next(11, "b")])
    // 25 ms is 2.5 ticks: rounded up to 3, so nothing happens early.
    #expect(try Marble.parse("a 25ms b", tick: tenMilliseconds) == [.next(0, "a"), .next(4, "b")])
    #expect(try Marble.parse("1.5s a", tick: .milliseconds(100)) == [.next(15, "a")])
    #expect(try Marble.parse("0.001ms a", tick: .microseconds(1)) == [.next(1, "a")])
    #expect(try Marble.parse("0.0005ms a", tick: .microseconds(1)) == [.next(1, "a")])
    #expect(try Marble.parse("1s a", tick: .milliseconds(250)) == [.next(4, "a")])
    // A third of a second is 333_333_333_333_333_333 attoseconds, so 1 s is a hair over 3 ticks.
    #expect(try Marble.parse("1s a", tick: .seconds(1) / 3) == [.next(4, "a")])
  }

  @Test func framesDoNotDependOnTheTick() throws {
    #expect(
      try Marble.parse("-a-(bc)|", tick: .seconds(1)) == [
        .next(1, "a"), .next(3, "b"), .next(3, "c"), .completed(7),
      ] as [Recorded<E>])
  }

  @Test func aColdMarbleMayLeaveOutTheCaret() throws {
    #expect(
      try Marble.parse("-a|", allowsSubscriptionPoint: false) == [.next(1, "a"), .completed(2)]
        as [Recorded<E>])
  }

  // MARK: Subscription marbles

  @Test func aSubscriptionMarbleCountsFromTheStartOfTheString() throws {
    #expect(try Marble.parseSubscription("--^---!") == Subscription(2, 6))
    #expect(try Marble.parseSubscription("^") == Subscription(0, nil))
    #expect(try Marble.parseSubscription("^!") == Subscription(0, 1))
    #expect(try Marble.parseSubscription("---(^!)") == Subscription(3, 3))
    #expect(try Marble.parseSubscription("-[^!]") == Subscription(1, 1))
    #expect(try Marble.parseSubscription("  - ^ -- ! ") == Subscription(1, 4))
    #expect(try Marble.parseSubscription("10ms ^ 5ms !") == Subscription(10, 16))
    #expect(try Marble.parseSubscription("^ 1s !", tick: .milliseconds(100)) == Subscription(0, 11))
  }
}
