import Foundation
import MarbleTesting
import XCTest

/// Whether the code running here, after a sleep, is on the main thread.
private func isOnTheMainThread() async -> Bool {
  try? await Task.sleep(for: .milliseconds(10))
  return Thread.isMainThread
}

/// Work that is not the main actor's runs off the main thread in a world whose root is XCTest's
/// main thread, as the cooperative pool runs it (found porting Nimble's `AsyncAwaitTest`: on
/// 2026-11-29's `main` the world's turns on the main thread's run loop ran every ready job there,
/// so a nonisolated expression saw `Thread.isMainThread`).
final class OffTheMainThreadXCTests: XCTestCase {
  // Every test of this class in a world of its own.
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  func testNonisolatedWorkRunsOffTheMainThread() async {
    let detached = await Task.detached { await isOnTheMainThread() }.value
    XCTAssertFalse(detached)
    let child = await Task { await isOnTheMainThread() }.value
    XCTAssertFalse(child)
    async let letChild = isOnTheMainThread()
    let inAsyncLet = await letChild
    XCTAssertFalse(inAsyncLet)
  }

  @MainActor func testTheMainActorsWorkStaysOnTheMainThread() async {
    try? await Task.sleep(for: .milliseconds(10))
    XCTAssertTrue(Thread.isMainThread)
  }
}
