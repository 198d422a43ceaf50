// The app code comes from TestSupport; the listing is the rest, imports included.
// swift-format-ignore: OrderedImports
import TestSupport

// snippet: world-xctest
import MarbleTesting
import XCTest

final class FeedModelXCTests: XCTestCase {
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  @MainActor func testTheFeedLoadsInTwoSecondsOfVirtualTime() async {
    let start = ContinuousClock.now
    let model = FeedModel()
    await model.load()
    XCTAssertEqual(model.items, ["news", "weather"])
    XCTAssertEqual(start.duration(to: .now), .seconds(2))
  }
}
// snippet-end
