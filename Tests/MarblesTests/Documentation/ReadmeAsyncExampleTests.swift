import MarbleTesting
import Marbles
import Testing

/// The README's async example, whole: the app code it tests is in the listing.
@Suite struct ReadmeAsyncExampleTests {
  // snippet: readme-world-awaits
  @MainActor final class Feed {  // the app's code, as written: two sources side by side
    var items: [String] = []

    func load() async {
      async let news = fetch("news", after: .seconds(1))
      async let weather = fetch("weather", after: .seconds(2))
      items = await [news, weather]
    }

    nonisolated func fetch(_ name: String, after latency: Duration) async -> String {
      try? await Task.sleep(for: latency)  // a real sleep: nothing is injected
      return name
    }
  }

  @MainActor @Test(.virtualTime) func theFeedLoadsInTwoSeconds() async {
    let start = ContinuousClock.now
    let feed = Feed()
    await feed.load()
    #expect(feed.items == ["news", "weather"])
    #expect(start.duration(to: .now) == .seconds(2))  // exactly, in no real time
  }
  // snippet-end
}
