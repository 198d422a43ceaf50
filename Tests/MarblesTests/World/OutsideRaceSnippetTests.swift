// The app code (withTimeout) comes from TestSupport; the listing is the rest, imports included.
// swift-format-ignore: OrderedImports
import MarbleTesting
import Marbles
import Testing
import TestSupport

// snippet: world-outside-race
import Foundation

/// A Dispatch block of the world is the world's work, runnable while it runs: time does not
/// move, and its reply — after 0.3 s of real work — beats the virtual timeout.
@Test(.virtualTime) func aReplyFromAWorldsDispatchBlockBeatsAVirtualTimeout() async throws {
  let value = try await withTimeout(.seconds(1)) {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
      DispatchQueue.global().async {
        Thread.sleep(forTimeInterval: 0.3)  // real work, while virtual time stands still
        continuation.resume(returning: 7)
      }
    }
  }
  #expect(value == 7)
  #expect(TestScheduler.current?.now == 0)
}
// snippet-end
