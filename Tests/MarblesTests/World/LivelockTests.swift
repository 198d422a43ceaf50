import MarbleTesting
import Marbles
import Synchronization
import Testing

/// Livelock: a world that runs its step budget without its time moving — here a debounce whose
/// computed sleep rounds to zero, spun by the test's own task — fails as a livelock naming the
/// tasks that kept running, instead of spinning until it is killed.
@Suite struct LivelockTests {
  /// Waits for `source` to be quiet for `quiet`, polling with sleeps of what is left of the
  /// quiet period — which rounds to zero once the deadline is read as passed in a 1 s tick.
  static func debounced(
    _ source: AsyncStream<Int>, quiet: Duration
  ) async -> Int? {
    let latest = Mutex<(value: Int?, at: ContinuousClock.Instant)>((nil, .now))
    let feeding = Task {
      for await value in source { latest.withLock { $0 = (value, .now) } }
    }
    defer { feeding.cancel() }
    while !Task.isCancelled {
      let (value, at) = latest.withLock { $0 }
      let left = quiet - (ContinuousClock.now - at)
      if let value, left <= .zero { return value }
      // The bug: the wait is truncated to whole seconds, so a wait shorter than one is zero.
      try? await Task.sleep(for: .seconds(Int64(left / .seconds(1))))
    }
    return nil
  }

  @Test func aDebounceThatSpinsOnZeroLengthSleepsIsALivelock() async {
    let report = Mutex("")
    await withKnownIssue {
      await withVirtualTime(stepLimit: 20_000) { _ in
        let (source, feed) = AsyncStream<Int>.makeStream()
        let producer = Task {
          try? await Task.sleep(for: .milliseconds(400))
          feed.yield(1)
        }
        _ = await Self.debounced(source, quiet: .milliseconds(500))
        producer.cancel()
      }
    } matching: { issue in
      report.withLock { $0 = issue.comments.map(\.rawValue).joined() }
      return true
    }
    let text = report.withLock { $0 }
    #expect(
      text.hasPrefix("The test's world is livelocked at tick 0: it ran 20000 steps"), "\(text)")
    #expect(text.contains("without its time moving"), "\(text)")
    #expect(text.contains("What kept running:\n  - the test, "), "\(text)")
  }
}
