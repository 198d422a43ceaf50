package import Signals

/// The first difference between an expected and an actual list of recorded events, said in words.
///
/// This is the part of a failure message that does not depend on a test framework; the `Marbles`
/// assertions report it.
///
/// ```swift
/// EventListDiff(expected: [.next(4, "b")], actual: [.next(5, "b")])?.summary
/// // "expected next(\"b\") at tick 4, got nothing; next(\"b\") came at tick 5"
/// ```
package struct EventListDiff<Value: Equatable, Failure: Error & Equatable>: Sendable, Equatable
where Value: Sendable {
  /// What the first difference is.
  package enum Kind: Sendable, Equatable {
    /// At the same tick, `actual` came instead of `expected`.
    case different(expected: Event<Value, Failure>, actual: Event<Value, Failure>)
    /// `expected` did not come at its tick; `cameAt` is a tick it came at instead, if any.
    case missing(Event<Value, Failure>, cameAt: Int?)
    /// `actual` came though nothing was expected then; `expectedAt` is a tick it was expected at.
    case unexpected(Event<Value, Failure>, expectedAt: Int?)
  }

  /// The tick of the first difference.
  package let tick: Int
  /// What the first difference is.
  package let kind: Kind
  /// The difference in one sentence, in ticks.
  package var summary: String { summary(unit: "tick") }

  /// The difference in one sentence, with times in `unit` ("tick", or "frame" under a marble).
  ///
  /// - Parameter unit: The word for one unit of time.
  /// - Returns: The sentence.
  package func summary(unit: String) -> String {
    // Each event's text is bounded: a value may describe itself at any length.
    func text(_ event: Event<Value, Failure>) -> String { MessageBounds.valueText("\(event)") }
    switch kind {
    case .different(let expected, let actual):
      return "expected \(text(expected)) at \(unit) \(tick), got \(text(actual))"
    case .missing(let expected, let cameAt):
      return "expected \(text(expected)) at \(unit) \(tick), got nothing"
        + (cameAt.map { "; \(text(expected)) came at \(unit) \($0)" } ?? "; it never came")
    case .unexpected(let actual, let expectedAt):
      return "got unexpected \(text(actual)) at \(unit) \(tick)"
        + (expectedAt.map { "; it was expected at \(unit) \($0)" } ?? "")
    }
  }

  /// Compares two event lists; `nil` when they are equal.
  ///
  /// - Parameters:
  ///   - expected: What should have happened.
  ///   - actual: What happened.
  package init?(
    expected: [Recorded<Event<Value, Failure>>], actual: [Recorded<Event<Value, Failure>>]
  ) {
    guard expected != actual else { return nil }
    let index = firstDifference(expected, actual)
    let wanted = index < expected.count ? expected[index] : nil
    let got = index < actual.count ? actual[index] : nil
    tick = min(wanted?.time ?? .max, got?.time ?? .max)
    if let wanted, let got, wanted.time == got.time {
      kind = .different(expected: wanted.value, actual: got.value)
    } else if let wanted, got.map({ wanted.time < $0.time }) ?? true {
      // Something expected did not happen at its tick. Where it came instead is looked for among
      // the actual events from the difference on: one before it matched an expected event.
      let elsewhere = actual[index...].first {
        $0.value == wanted.value && $0.time != wanted.time
      }
      kind = .missing(wanted.value, cameAt: elsewhere?.time)
    } else {
      // Something happened earlier than anything expected, or after the expected list ended.
      let got = got!
      let expectedAt = expected[index...].first {
        $0.value == got.value && $0.time != got.time
      }
      kind = .unexpected(got.value, expectedAt: expectedAt?.time)
    }
  }
}

/// The first difference between expected and actual subscription logs, said in words.
package struct SubscriptionListDiff: Sendable, Equatable {
  /// The difference in one sentence.
  package let summary: String

  /// Compares two subscription logs; `nil` when they are equal.
  ///
  /// - Parameters:
  ///   - expected: The subscriptions that should have happened.
  ///   - actual: The subscriptions that happened.
  package init?(expected: [Subscription], actual: [Subscription]) {
    guard expected != actual else { return nil }
    let index = firstDifference(expected, actual)
    let wanted: Subscription? = index < expected.count ? expected[index] : nil
    let got: Subscription? = index < actual.count ? actual[index] : nil
    let counts =
      "expected \(expected.count) subscription\(expected.count == 1 ? "" : "s"), "
      + "got \(actual.count)"
    switch (wanted, got) {
    case (let wanted?, let got?):
      summary =
        "subscription \(index + 1): expected \(wanted), got \(got)"
        + (expected.count == actual.count ? "" : " (\(counts))")
    case (.some, nil):
      // Every subscription from here on is missing; list them all, bounded.
      summary = "\(counts); missing " + MessageBounds.list(expected[index...].map { "\($0)" })
    case (nil, .some):
      summary = "\(counts); unexpected " + MessageBounds.list(actual[index...].map { "\($0)" })
    case (nil, nil):
      summary = "the logs are equal"
    }
  }
}

/// The index of the first element where two arrays differ (the shorter one's length if one is a
/// prefix of the other).
func firstDifference<Element: Equatable>(_ left: [Element], _ right: [Element]) -> Int {
  zip(left.indices, zip(left, right)).first { $0.1.0 != $0.1.1 }?.0 ?? min(left.count, right.count)
}
