import MarbleTesting
import Signals
import Testing

/// A million random strings from the marble alphabet plus junk: each must parse or throw, never
/// trap or hang, and what it returns must make sense.
@Suite struct MarbleFuzzTests {
  /// The marble alphabet, weighted towards the characters that interact (digits and units for time
  /// progressions, brackets, terminals), plus junk: punctuation, a line break, a tab, a non-ASCII
  /// letter, an emoji, a lone combining accent (which merges into the character before it), and
  /// a fullwidth digit.
  static let alphabet: [Character] =
    Array("----    ab1055.ms()[]^!|#") + [
      "m", "s", "=", "\n", "\t", "é", "🙂", "\u{301}", "\r\n", "１", "*",
    ]

  @Test func aMillionRandomStringsParseOrThrow() {
    var generator = SplitMix(seed: 0x00F0_55ED)
    let values: [Character: Int] = ["a": 1, "1": 2, "*": 3]
    var parsed = 0
    var thrown = 0
    var violations: [String] = []
    var characters: [Character] = []
    characters.reserveCapacity(24)
    for iteration in 0..<1_000_000 {
      characters.removeAll(keepingCapacity: true)
      let random = generator.next()
      let length = Int(random % 24)
      var bits = generator.next()
      for position in 0..<length {
        if position % 10 == 9 { bits = generator.next() }
        characters.append(Self.alphabet[Int(bits % UInt64(Self.alphabet.count))])
        bits /= UInt64(Self.alphabet.count)
      }
      let marble = String(characters)
      do {
        switch iteration % 4 {
        case 0:
          if let problem = Self.problem(with: try Marble.parse(marble)) {
            violations.append("\(marble.debugDescription): \(problem)")
          }
        case 1:
          if let problem = Self.problem(with: try Marble.parse(marble, values: values)) {
            violations.append("\(marble.debugDescription): \(problem)")
          }
        case 2:
          let events = try Marble.parse(marble, allowsSubscriptionPoint: false)
          if let problem = Self.problem(with: events) {
            violations.append("\(marble.debugDescription): \(problem)")
          } else if events.contains(where: { $0.time < 0 }) {
            violations.append("\(marble.debugDescription): a cold marble has a negative time")
          }
        default:
          let subscription = try Marble.parseSubscription(marble)
          if let disposed = subscription.disposed, disposed < subscription.subscribed {
            violations.append("\(marble.debugDescription): \(subscription) ends before it starts")
          }
        }
        parsed += 1
      } catch {
        thrown += 1
        if error.line != 1 || error.column < 1 || error.column > marble.count + 1
          || error.sourceLine != marble
        {
          violations.append("\(marble.debugDescription): misplaced error \(error)")
        }
      }
    }
    #expect(parsed + thrown == 1_000_000)
    #expect(parsed > 50_000, "the alphabet should produce plenty of valid marbles")
    #expect(thrown > 50_000)
    #expect(violations.isEmpty, "\(violations.count) violations, first: \(violations.prefix(3))")
  }

  /// What is wrong with a parsed event list, if anything: it must follow the event grammar.
  static func problem<Value>(with events: [Recorded<Event<Value, TestError>>]) -> String? {
    for index in events.indices.dropFirst() {
      if events[index - 1].value.isTerminal { return "an event after a terminal event" }
      if events[index].time < events[index - 1].time { return "time goes backwards" }
    }
    return nil
  }
}
