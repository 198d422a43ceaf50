import MarbleTesting
import Signals
import Testing

/// Failure texts stay short whatever the input, and the printer never traps.
@Suite struct MessageBoundsTests {
  typealias E = Event<Int, TestError>

  /// 100,000 events of 20 values, the 50,000th wrong.
  func longLists() -> (expected: [Recorded<E>], actual: [Recorded<E>]) {
    let actual: [Recorded<E>] = (0..<100_000).map { .next($0, $0 % 20) } + [.completed(100_000)]
    var expected = actual
    expected[50_000] = .next(50_000, -1)
    return (expected, actual)
  }

  @Test func moreDistinctValuesThanLettersStillDraw() {
    let events: [Recorded<E>] = (0..<100_000).map { .next($0, $0) }
    let diagram = Marble.diagram(events)
    #expect(!diagram.isExact)
    #expect(diagram.notes.count == 1)
    #expect(diagram.notes.first?.hasSuffix("are drawn as '?', which does not parse") == true)
    #expect(diagram.marbles.hasSuffix("???"))
    #expect(diagram.marbles.hasPrefix("abc"))
  }

  @Test func aMarbleMismatchOverAHundredThousandEventsShowsAWindow() throws {
    let (expected, actual) = longLists()
    let marble = Marble.diagram(expected).marbles
    let message = try #require(
      FailureMessage.marbles(
        expectedMarble: marble, expected: expected, actual: actual, values: [:]))
    #expect(message.count < 4_000)
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines[0] == "marbles differ at frame 50000")
    #expect(lines[1].hasPrefix("  expected  …") && lines[1].hasSuffix("…"))
    #expect(lines[2].hasPrefix("  actual    …") && lines[2].hasSuffix("…"))
    // The caret stands under the first difference in both rows.
    let caret = try #require(lines[3].firstIndex(of: "^"))
    let column = lines[3].distance(from: lines[3].startIndex, to: caret)
    #expect(Array(lines[1])[column] != Array(lines[2])[column])
    #expect(lines[3].hasSuffix("^ expected next(-1) at frame 50000, got next(0)"))
    #expect(
      lines.last
        == "  (the rows are cut to the frames around frame 50000; expected has 100001 events, "
        + "actual 100001)")
  }

  @Test func anEventListMismatchShowsAWindowAndCounts() throws {
    let (expected, actual) = longLists()
    let message = try #require(FailureMessage.events(expected: expected, actual: actual))
    #expect(message.count < 1_000)
    #expect(
      message.contains(
        "expected  [… 49997 earlier, next(17) @ 49997, next(18) @ 49998, next(19) @ 49999, "
          + "next(-1) @ 50000, next(1) @ 50001"))
    #expect(message.contains("… 49997 later] (100001 events)"))
  }

  @Test func aHugeValueIsCutInTheSummary() throws {
    let huge = String(repeating: "z", count: 1_000_000)
    let message = try #require(
      FailureMessage.events(
        expected: [.next(1, huge)] as [Recorded<Event<String, TestError>>], actual: []))
    #expect(message.count < 1_000)
    #expect(message.contains("… (1000008 characters)"))
  }

  @Test func everyUnexpectedSubscriptionIsListedBounded() throws {
    let actual = (0..<1_000).map { Subscription($0, $0 + 1) }
    let few = try #require(
      SubscriptionListDiff(expected: [Subscription(0, 1)], actual: Array(actual.prefix(3))))
    #expect(few.summary == "expected 1 subscription, got 3; unexpected (1, 2), (2, 3)")
    let many = try #require(SubscriptionListDiff(expected: [Subscription(0, 1)], actual: actual))
    #expect(
      many.summary
        == "expected 1 subscription, got 1000; unexpected (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), "
        + "(6, 7), (7, 8), (8, 9), (9, 10), (10, 11), (11, 12), (12, 13), … and 987 more")
    let missing = try #require(
      SubscriptionListDiff(
        expected: [Subscription(0, 1), Subscription(2), Subscription(3)], actual: []))
    #expect(missing.summary == "expected 3 subscriptions, got 0; missing (0, 1), (2, ∞), (3, ∞)")
  }

  @Test func aSubscriptionMarbleMismatchListsABoundedNumberOfRows() throws {
    let actual = (0..<1_000).map { Subscription($0, $0 + 1) }
    let message = try #require(
      FailureMessage.subscriptionMarbles(
        expectedMarbles: ["^!"], expected: [Subscription(0, 1)], actual: actual))
    #expect(message.count < 2_000)
    #expect(message.contains("… and 988 more"))
  }
}
