public import Observation

// Shared by the Swift Testing and XCTest targets: app-shaped code under test.

/// A search screen's model, as an app writes it: typing sets `query`, whose `didSet` starts a
/// search that waits 300 ms of quiet on the injected clock (a debounce), cancelling the search a
/// previous keystroke started; the API itself takes time on the same clock.
@MainActor @Observable public final class SearchViewModel {
  public var query = "" {
    didSet { search() }
  }
  public private(set) var results: [String] = []
  public private(set) var searchCount = 0
  @ObservationIgnored private var searchTask: Task<Void, Never>?
  @ObservationIgnored private let clock: any Clock<Duration>
  @ObservationIgnored private let api: FakeSearchAPI

  public init(clock: any Clock<Duration>, api: FakeSearchAPI) {
    self.clock = clock
    self.api = api
  }

  private func search() {
    searchTask?.cancel()
    let query = query
    searchTask = Task {
      do {
        try await clock.sleep(for: .milliseconds(300))
        searchCount += 1
        results = try await api.search(query)
      } catch {}
    }
  }
}

/// An API that answers after 100 ms on the injected clock with every word of its catalogue that
/// starts with the query.
public struct FakeSearchAPI: Sendable {
  let clock: any Clock<Duration>
  var catalogue = ["swift", "swiftui", "sweet", "marbles", "macros"]

  public init(clock: any Clock<Duration>) {
    self.clock = clock
  }

  public func search(_ query: String) async throws -> [String] {
    try await clock.sleep(for: .milliseconds(100))
    return catalogue.filter { $0.hasPrefix(query) }
  }
}
