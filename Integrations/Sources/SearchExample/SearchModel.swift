import AsyncAlgorithms

/// An app-shaped example of async code under test: a search box whose queries are debounced on an
/// injected clock, then each fetched, one at a time.
///
/// The clock is a parameter, so the app passes `ContinuousClock()` and a test passes a
/// `TestScheduler`'s clock; nothing here knows about testing.
public struct SearchModel<C: Clock>: Sendable where C.Duration == Duration {
  /// How long the user must stop typing before a query is fetched.
  public let quietTime: Duration
  /// The clock the quiet time is measured on.
  public let clock: C
  /// Fetches the titles matching a query.
  public let fetch: @Sendable (String) async throws -> [String]

  /// Creates a model.
  ///
  /// - Parameters:
  ///   - quietTime: How long the user must stop typing before a query is fetched.
  ///   - clock: The clock the quiet time is measured on.
  ///   - fetch: Fetches the titles matching a query; what it throws ends the results.
  public init(
    quietTime: Duration, clock: C, fetch: @escaping @Sendable (String) async throws -> [String]
  ) {
    self.quietTime = quietTime
    self.clock = clock
    self.fetch = fetch
  }

  /// What the results list shows as the user types `queries`: for each query the user paused on
  /// (and that differs from the one before, and is not empty), `query: n titles` once it is
  /// fetched.
  ///
  /// - Parameter queries: The text of the search box, as the user types.
  /// - Returns: The results, one line per fetched query.
  public func results<Queries: AsyncSequence & Sendable>(for queries: Queries)
    -> some AsyncSequence<String, any Error> & Sendable
  where Queries.Element == String {
    let fetch = fetch
    return
      queries
      .debounce(for: quietTime, clock: clock)
      .filter { !$0.isEmpty }
      .removeDuplicates()
      .map { query in
        let titles = try await fetch(query)
        return "\(query): \(titles.count) title\(titles.count == 1 ? "" : "s")"
      }
  }
}
