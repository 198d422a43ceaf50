import MarbleTesting
import Signals
import Testing

/// `parse(print(x)) == x`, checked over thousands of seeded random event lists.
@Suite struct MarbleRoundTripTests {
  typealias E = Event<String, TestError>

  /// Random event lists a signal could send: times never decrease, at most one terminal event,
  /// last. Steps of 0 make groups; short steps after a group make `[…]` groups; long steps make
  /// time progressions; negative starts make a `^`; digits, `m` and `s` make digit values that
  /// look like time progressions.
  struct EventLists {
    static let values = [
      "a", "b", "c", "x", "Z", "0", "1", "5", "9", "m", "s", "é", "hello", "", "*", " ", "-", "(",
      "1ms", "a b",
    ]
    var generator: SplitMix

    mutating func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }

    mutating func step() -> Int {
      switch random(100) {
      case ..<30: 0
      case ..<70: 1 + random(3)
      case ..<90: 4 + random(7)
      case ..<97: 11 + random(50)
      default: 1_000 + random(1_000_000_000_000)
      }
    }

    /// Values that spell time progressions when printed side by side.
    static let digitsAndUnits = ["1", "5", "0", "m", "s", "s"]

    mutating func next() -> [Recorded<E>] {
      var time = random(4) == 0 ? -1 - random(40) : random(6)
      var events: [Recorded<E>] = []
      let spellsTimeProgressions = random(8) == 0
      for index in 0..<random(13) {
        if index > 0 { time += spellsTimeProgressions && random(4) > 0 ? 1 : step() }
        let value =
          spellsTimeProgressions
          ? Self.digitsAndUnits[random(Self.digitsAndUnits.count)]
          : Self.values[random(Self.values.count)]
        events.append(.next(time, value))
      }
      if !events.isEmpty { time += step() }
      switch random(3) {
      case 0: events.append(.completed(time))
      case 1: events.append(.error(time, TestError("e\(random(3))")))
      default: break
      }
      return events
    }
  }

  static let ticks: [Duration] = [
    .milliseconds(1), .milliseconds(10), .microseconds(1), .seconds(1) / 3, .microseconds(1_500),
  ]

  @Test func everyEventListPrintsExactlyAndParsesBack() throws {
    var lists = EventLists(generator: SplitMix(seed: 0x4D61_7262_6C65))
    var coverage: [String: Int] = [:]
    var failures: [String] = []
    let count = 6_000
    for index in 0..<count {
      let events = lists.next()
      let tick = Self.ticks[index % Self.ticks.count]
      let diagram = Marble.diagram(events, tick: tick)
      let parsed: [Recorded<E>]?
      do {
        parsed = try Marble.parse(
          diagram.marbles, values: diagram.values, error: diagram.error ?? TestError(), tick: tick)
      } catch {
        parsed = nil
      }
      if !diagram.isExact || parsed != events || (try? diagram.parse()) != events {
        failures.append("\(events) → \(diagram.marbles) → \(parsed.map { "\($0)" } ?? "error")")
      }
      let marbles = diagram.marbles
      for (feature, present) in [
        ("group", marbles.contains("(")),
        ("one-frame group", marbles.contains(/\[[^0-9]/)),
        ("caret", marbles.contains("^")),
        ("time progression", marbles.contains("ms ")),
        ("bracketed digit", marbles.contains(/\[[0-9]\]/)),
        ("legend", !diagram.legend.isEmpty),
        ("error", marbles.contains("#")),
      ] where present {
        coverage[feature, default: 0] += 1
      }
    }
    #expect(
      failures.isEmpty, "\(failures.count) lists did not round-trip, first: \(failures.prefix(3))")
    // The generator reaches every printing rule many times.
    for feature in [
      "group", "one-frame group", "caret", "time progression", "bracketed digit", "legend", "error",
    ] {
      #expect(coverage[feature, default: 0] >= 20, "\(feature): \(coverage[feature, default: 0])")
    }
  }

  @Test func manyDistinctValuesRunPastTheLatinLetters() throws {
    let events: [Recorded<Event<Int, TestError>>] =
      (0..<300).map { .next($0, $0) } + [.completed(300)]
    let diagram = Marble.diagram(events)
    #expect(diagram.legend.count == 300)
    #expect(diagram.legend[52] == "α = 52")
    #expect(diagram.marbles.count == 301)
    #expect(try diagram.parse() == events)
  }

  @Test func valuesThatLookAlikeButDifferStayApartWhenEquatable() throws {
    struct Tagged: Equatable, CustomStringConvertible {
      var shown: Int
      var hidden: Int
      var description: String { "Tagged(\(shown))" }
    }
    let events: [Recorded<Event<Tagged, TestError>>] = [
      .next(0, Tagged(shown: 1, hidden: 1)), .next(1, Tagged(shown: 1, hidden: 2)),
      .next(2, Tagged(shown: 1, hidden: 1)),
    ]
    let diagram = Marble.diagram(events)
    #expect(diagram.marbles == "aba")
    #expect(try diagram.parse() == events)
  }

  @Test func everySubscriptionPrintsAndParsesBack() throws {
    var generator = SplitMix(seed: 99)
    var failures: [String] = []
    for index in 0..<5_000 {
      let subscribed = Int(generator.next() % (index % 10 == 0 ? 1_000_000 : 60))
      let disposed: Int? =
        generator.next() % 4 == 0 ? nil : subscribed + Int(generator.next() % 60)
      let subscription = Subscription(subscribed, disposed)
      let tick = Self.ticks[index % Self.ticks.count]
      let marbles = Marble.diagram(subscription, tick: tick)
      let parsed = try? Marble.parseSubscription(marbles, tick: tick)
      if parsed != subscription { failures.append("\(subscription) → \(marbles)") }
    }
    #expect(failures.isEmpty, "first: \(failures.prefix(3))")
  }

  /// Every marble that parses prints as a marble that parses to the same events.
  @Test func parsedMarblesPrintBackToTheSameEvents() throws {
    let alphabet: [Character] = Array("--------  abc1m5s()[]^|#")
    var generator = SplitMix(seed: 2024)
    var parsedCount = 0
    var failures: [String] = []
    for _ in 0..<50_000 {
      let length = Int(generator.next() % 16)
      let marble = String((0..<length).map { _ in alphabet[Int(generator.next() % 24)] })
      guard let events = try? Marble.parse(marble) else { continue }
      parsedCount += 1
      let diagram = Marble.diagram(events)
      if (try? diagram.parse()) != events || !diagram.isExact {
        failures.append("\(marble) → \(diagram.marbles)")
      }
    }
    #expect(parsedCount > 5_000)
    #expect(failures.isEmpty, "first: \(failures.prefix(3))")
  }
}
