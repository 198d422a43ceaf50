import MarbleTesting
import Testing
import XCTest

/// A world whose test waits for a stream nobody feeds: a deadlock, which the world reports by
/// itself. Linked with `MarbleTesting` alone, nothing carries that report to the test framework.
func waitForAStreamNobodyFeeds() async {
  await withVirtualTime { _ in
    let (stream, _) = AsyncStream.makeStream(of: Int.self)
    for await _ in stream {}
  }
}

final class DeadlockXCTests: XCTestCase {
  func testADeadlockDoesNotPass() async {
    await waitForAStreamNobodyFeeds()
  }
}

@Test func aDeadlockDoesNotPass() async {
  await waitForAStreamNobodyFeeds()
}
