@_spi(Internals) package import Signals

/// What record mode writes: recorded events as the printer's canonical marble, every value named
/// by the expectation's own `values:` map.
package enum RecordedMarble {
  /// `events` as a marble whose value characters are keys of `values` and whose `#` is `error`.
  ///
  /// - Returns: The marble, or why it cannot be written: a value with no key in `values` or with
  ///   two, or a failure that is not the one `#` stands for.
  package static func events<Value: Equatable, Failure: Error & Equatable>(
    _ events: [Recorded<Event<Value, Failure>>], values: [Character: Value], error: Failure?,
    tick: Duration
  ) -> Result<String, LiteralRewrite.Refusal> {
    let keys = values.keys.sorted()
    for event in events {
      switch event.value {
      case .next(let value):
        let named = keys.filter { values[$0] == value }
        guard named.count == 1 else {
          let text = MessageBounds.valueText("\(value)")
          return .failure(
            LiteralRewrite.Refusal(
              named.isEmpty
                ? "the value \(text) at tick \(event.time) has no key in values:"
                : "the value \(text) has \(named.count) keys in values: "
                  + named.map { "'\($0)'" }.joined(separator: ", ")))
        }
      case .error(let failure):
        guard let error, failure == error else {
          return .failure(
            LiteralRewrite.Refusal(
              "the failure \(MessageBounds.valueText("\(failure)")) at tick \(event.time) is not "
                + (error.map { "the one # stands for (\(MessageBounds.valueText("\($0)")))" }
                  ?? "one # can stand for here")))
        }
      case .completed:
        break
      }
    }
    return .success(
      MarblePrinter.diagram(
        events, tick: MarbleTime.tickAttoseconds(tick), longestDashRun: Marble.longestDashRun,
        isSame: { $0 == $1 }, named: { value in keys.first { values[$0] == value } },
        reserved: Set(keys)
      ).marbles)
  }

  /// Subscriptions as subscription marbles, one per subscription.
  package static func subscriptions(_ subscriptions: [Subscription], tick: Duration) -> [String] {
    Marble.diagram(subscriptions, tick: tick)
  }
}
