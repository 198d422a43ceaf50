import Dispatch
import Marbles
import Synchronization
import Testing

@testable import MarbleTesting

/// A world opened on the loop of a world that closed (the next world of a test that opens one
/// after another) decides on its own: its deadlock is reported at once, and its waits end.
@Suite struct NextWorldDeadlockTests {
  @Test func aDeadlockInTheNextWorldOnAClosedWorldsLoopIsReportedAndEnds() async {
    let reports = Mutex<[String]>([])
    let outcome = Mutex<(ended: String, sameLoop: Bool)?>(nil)
    await withKnownIssue {
      let result = await aWorldThenADeadlockedOne()
      outcome.withLock { $0 = result }
    } matching: { issue in
      reports.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    let (ended, sameLoop) = outcome.withLock { $0 } ?? ("never returned", false)
    #expect(ended == "the consumer's loop ended")
    #expect(sameLoop, "the second world did not open on the first one's loop")
    let report = reports.withLock { $0 }.joined(separator: "\n")
    #expect(report.hasPrefix("The test's world is deadlocked at tick 0"), "\(report)")
  }
}

/// Opens a world that sleeps and closes, then — on its loop's thread, where the root runs on — a
/// world whose root waits for a task that waits for a stream nobody feeds.
nonisolated func aWorldThenADeadlockedOne() async -> (ended: String, sameLoop: Bool) {
  let first = await withVirtualTime(stallTimeout: .seconds(3600)) { _ in
    try? await Task.sleep(for: .seconds(1))
    return World.current!.loop
  }
  return await withVirtualTime(stallTimeout: .seconds(3600)) { _ in
    let loop = World.current!.loop
    let (stream, feed) = AsyncStream<Int>.makeStream()
    let consumer = Task {
      for await _ in stream {}
      return "the consumer's loop ended"
    }
    let ended = await consumer.value
    withExtendedLifetime(feed) {}
    return (ended, loop === first)
  }
}
