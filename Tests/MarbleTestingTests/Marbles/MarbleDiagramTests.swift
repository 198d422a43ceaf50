import MarbleTesting
import Signals
import Testing

@Suite struct MarbleDiagramTests {
  typealias E = Event<String, TestError>

  struct User: Equatable, Sendable {
    var id: Int
  }

  /// The marbles for `events`, after checking the diagram is exact and parses back to `events`.
  func marbles(
    _ events: [Recorded<E>], tick: Duration = .milliseconds(1),
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    let diagram = Marble.diagram(events, tick: tick)
    #expect(diagram.isExact, sourceLocation: sourceLocation)
    #expect(diagram.notes.isEmpty, sourceLocation: sourceLocation)
    do {
      #expect(try diagram.parse() == events, sourceLocation: sourceLocation)
    } catch {
      Issue.record("\(diagram.marbles) does not parse: \(error)", sourceLocation: sourceLocation)
    }
    return diagram.marbles
  }

  // MARK: Events

  @Test func oneCharacterPerFrame() {
    #expect(marbles([.next(2, "a"), .next(4, "b"), .completed(5)]) == "--a-b|")
    #expect(marbles([.error(3, TestError())]) == "---#")
    #expect(marbles([]) == "")
    #expect(Marble.diagram([.next(1, "a")] as [Recorded<E>]).description == "-a")
  }

  @Test func eventsAtOneTickPrintAsAGroup() {
    #expect(marbles([.next(2, "a"), .next(2, "b"), .completed(6)]) == "--(ab)|")
    #expect(marbles([.next(1, "a"), .completed(1)]) == "-(a|)")
    #expect(marbles([.next(0, "a"), .next(0, "b"), .next(4, "c")]) == "(ab)c")
  }

  @Test func aGroupTheNextEventWouldOverlapPrintsInOneFrame() {
    // No RxJS marble puts c one tick after a group: (ab) takes four frames.
    #expect(marbles([.next(0, "a"), .next(0, "b"), .next(1, "c")]) == "[ab]c")
    #expect(marbles([.next(0, "a"), .next(0, "b"), .next(3, "c")]) == "[ab]--c")
    #expect(
      marbles([.next(0, "a"), .next(0, "b"), .next(1, "c"), .completed(1)]) == "[ab](c|)")
  }

  @Test func eventsBeforeTickZeroPutACaretAtTickZero() {
    #expect(marbles([.next(-2, "a"), .next(2, "b"), .completed(5)]) == "a-^-b--|")
    #expect(marbles([.next(-1, "a"), .next(0, "b"), .next(5, "c")]) == "a(^b)-c")
    #expect(marbles([.next(-1, "a"), .next(0, "b"), .next(1, "c")]) == "a[^b]c")
    #expect(marbles([.next(-3, "a"), .completed(-1)]) == "a-|^")
    #expect(marbles([.next(-2, "a"), .next(-2, "b"), .next(1, "c")]) == "[ab]-^c")
  }

  // MARK: Values

  @Test func otherValuesGetLettersAndALegend() throws {
    let events: [Recorded<Event<User, TestError>>] = [
      .next(0, User(id: 1)), .next(1, User(id: 2)), .next(2, User(id: 1)), .completed(3),
    ]
    let diagram = Marble.diagram(events)
    #expect(diagram.marbles == "aba|")
    #expect(diagram.legend == ["a = User(id: 1)", "b = User(id: 2)"])
    #expect(diagram.values == ["a": User(id: 1), "b": User(id: 2)])
    #expect(try diagram.parse() == events)
  }

  @Test func lettersSkipCharactersThatPrintAsThemselves() throws {
    let events: [Recorded<E>] = [
      .next(0, "a"), .next(1, "hello"), .next(2, "b"), .next(3, "world"), .next(4, "hello"),
    ]
    let diagram = Marble.diagram(events)
    #expect(diagram.marbles == "acbdc")
    #expect(diagram.legend == [#"c = "hello""#, #"d = "world""#])
    #expect(try Marble.parse(diagram.marbles, values: diagram.values) == events)
  }

  @Test func aOneCharacterStringThatIsNotALetterOrDigitGetsALetter() throws {
    let events: [Recorded<E>] = [.next(0, "*"), .next(1, " "), .next(2, "-"), .next(3, "")]
    let diagram = Marble.diagram(events)
    #expect(diagram.marbles == "abcd")
    #expect(diagram.legend == [#"a = "*""#, #"b = " ""#, #"c = "-""#, #"d = """#])
    #expect(try diagram.parse() == events)
  }

  @Test func theLegendIsEmptyWhenEveryValueIsItsOwnCharacter() {
    let diagram = Marble.diagram([.next(0, "x"), .next(1, "7")] as [Recorded<E>])
    #expect(diagram.legend.isEmpty)
    #expect(diagram.values == ["x": "x", "7": "7"])
  }

  @Test func lettersThatWouldMergeIntoOneCharacterGetLettersInstead() throws {
    // Hangul jamo side by side make one syllable: ᄀ then ᅡ would print as 가.
    let events: [Recorded<E>] = [.next(0, "ᄀ"), .next(1, "ᅡ"), .next(2, "x")]
    let diagram = Marble.diagram(events)
    #expect(diagram.marbles == "abx")
    #expect(diagram.legend == [#"a = "ᄀ""#, #"b = "ᅡ""#])
    #expect(try diagram.parse() == events)
    // Apart, they print as themselves.
    #expect(marbles([.next(0, "ᄀ"), .next(2, "ᅡ")]) == "ᄀ-ᅡ")
  }

  @Test func theDiagramRemembersItsTick() throws {
    let events: [Recorded<E>] = [.next(0, "a"), .next(100, "b")]
    let diagram = Marble.diagram(events, tick: .milliseconds(10))
    #expect(diagram.tick == .milliseconds(10))
    #expect(try diagram.parse() == events)
  }

  @Test func nonStringValuesGetLetters() throws {
    let events: [Recorded<Event<Int, TestError>>] = [.next(0, 1), .next(1, 2), .next(2, 1)]
    let diagram = Marble.diagram(events)
    #expect(diagram.marbles == "aba")
    #expect(diagram.legend == ["a = 1", "b = 2"])
  }

  @Test func characterValuesPrintAsThemselves() throws {
    let events: [Recorded<Event<Character, TestError>>] = [.next(0, "q"), .next(1, "!")]
    let diagram = Marble.diagram(events)
    #expect(diagram.marbles == "qa")
    #expect(diagram.legend == ["a = !"])
    #expect(try diagram.parse() == events)
  }

  @Test func theDiagramCarriesTheError() throws {
    struct Boom: Error, Equatable { var code: Int }
    let events: [Recorded<Event<String, Boom>>] = [.next(0, "a"), .error(2, Boom(code: 7))]
    let diagram = Marble.diagram(events)
    #expect(diagram.marbles == "a-#")
    #expect(diagram.error == Boom(code: 7))
    #expect(try diagram.parse() == events)
    #expect(Marble.diagram([.next(0, "a")] as [Recorded<Event<String, Boom>>]).error == nil)
  }

  // MARK: Time progression

  @Test func aLongWaitPrintsAsATimeProgression() {
    #expect(marbles([.next(0, "a"), .next(100, "b")]) == "a 99ms b")
    #expect(marbles([.next(50, "a"), .completed(51)]) == "50ms a|")
    #expect(
      marbles([.next(0, "a"), .next(33, "b")]) == "a" + String(repeating: "-", count: 32) + "b")
    #expect(marbles([.next(0, "a"), .next(34, "b")]) == "a 33ms b")
    #expect(marbles([.next(-40, "a"), .next(0, "b")]) == "a 39ms (^b)")
    #expect(marbles([.next(2_000_000_000_000, "a")]) == "2000000000000ms a")
  }

  @Test func aTimeProgressionIsInMillisecondsOfTheTick() {
    #expect(marbles([.next(0, "a"), .next(100, "b")], tick: .milliseconds(10)) == "a 990ms b")
    #expect(marbles([.next(0, "a"), .next(100, "b")], tick: .microseconds(500)) == "a 49.5ms b")
    #expect(
      marbles([.next(0, "a"), .next(100, "b")], tick: .seconds(1) / 3)
        == "a 32999.999999999999967ms b")
  }

  @Test func aDigitThatWouldReadAsATimeProgressionPrintsInBrackets() {
    #expect(marbles([.next(0, "1"), .next(1, "m"), .next(2, "s")]) == "[1]ms")
    #expect(
      marbles([.next(0, "a"), .next(40, "2"), .next(41, "s"), .next(80, "b")])
        == "a 39ms [2]s 38ms b")
    #expect(marbles([.next(1, "5"), .next(2, "m")]) == "-[5]m")
    #expect(marbles([.next(0, "1"), .next(1, "m"), .next(2, "s"), .completed(3)]) == "[1]ms|")
    // Harmless digits print as themselves.
    #expect(marbles([.next(0, "1"), .next(1, "2")]) == "12")
    #expect(marbles([.next(0, "1"), .next(1, "m"), .next(2, "s"), .next(3, "a")]) == "1msa")
    #expect(marbles([.next(1, "1"), .next(2, "m")], tick: .milliseconds(1)) == "-[1]m")
    #expect(marbles([.next(2, "1"), .next(3, "m")]) == "--1m")
  }

  // MARK: Lists no signal sends

  @Test func timeGoingBackwardsIsDrawnLaterAndFlagged() {
    let events: [Recorded<E>] = [.next(5, "a"), .next(3, "b")]
    let diagram = Marble.diagram(events)
    #expect(diagram.marbles == "-----ab")
    #expect(!diagram.isExact)
    #expect(
      diagram.notes == [
        #"next("b") @ 3 is drawn at tick 6: it is earlier than the event before it, and time in a "#
          + "marble only moves forward"
      ])
  }

  @Test func eventsAfterATerminalAreDrawnAndFlagged() {
    let diagram = Marble.diagram([.completed(1), .next(2, "a")] as [Recorded<E>])
    #expect(diagram.marbles == "-|a")
    #expect(!diagram.isExact)
    #expect(
      diagram.notes == [
        #"next("a") @ 2 comes after the terminal completed @ 1: no marble can show it, so this "#
          + "one does not parse"
      ])
    #expect(throws: MarbleSyntaxError.self) { try diagram.parse() }
  }

  // MARK: Subscriptions

  @Test func aSubscriptionPrintsAsASubscriptionMarble() throws {
    #expect(Marble.diagram(Subscription(2, 6)) == "--^---!")
    #expect(Marble.diagram(Subscription(0)) == "^")
    #expect(Marble.diagram(Subscription(3, 3)) == "---(^!)")
    #expect(Marble.diagram(Subscription(0, 1)) == "^!")
    #expect(Marble.diagram(Subscription(0, 100)) == "^ 99ms !")
    #expect(Marble.diagram(Subscription(40)) == "40ms ^")
    #expect(Marble.diagram(Subscription(0, 100), tick: .milliseconds(10)) == "^ 990ms !")
    #expect(Marble.diagram([Subscription(0, 2), Subscription(1)]) == ["^-!", "-^"])
    for subscription in [Subscription(0, 100), Subscription(40), Subscription(3, 3)] {
      #expect(try Marble.parseSubscription(Marble.diagram(subscription)) == subscription)
    }
  }

  @Test func aSubscriptionNoSignalRecordsPrintsAsAMarbleTheParserRejects() {
    #expect(Marble.diagram(Subscription(-5)) == "-5ms ^")
    #expect(Marble.diagram(Subscription(5, 2)) == "--!--^")
    #expect(throws: MarbleSyntaxError.self) { try Marble.parseSubscription("-5ms ^") }
    #expect(throws: MarbleSyntaxError.self) { try Marble.parseSubscription("--!--^") }
  }
}
