import Testing

/// Tags that map each test to the acceptance point it proves.
extension Tag {
  /// DESIGN.md "Semantics".
  @Tag static var semantics: Self
  /// The ReactiveCocoa 2.5 behaviour the seeds describe.
  @Tag static var racSpec: Self
  /// A subject fed by several upstream signals.
  @Tag static var upstreams: Self
  /// Seed 004's six requests.
  @Tag static var seed004: Self
  /// Seed 001's channel.
  @Tag static var channel: Self
  /// Sends, subscriptions and disposals from inside a subscriber's callback.
  @Tag static var reentrancy: Self
  /// Released subscribers and closures.
  @Tag static var memory: Self
  /// Thread safety.
  @Tag static var concurrency: Self
  /// A regression test for a bug found while writing this suite.
  @Tag static var regression: Self
}
