// Ported from apple/swift-async-algorithms 1.1.4: the tests of `TestDebounce.swift` and
// `TestCombineLatest.swift` (`Tests/AsyncAlgorithmsTests/`) that wait in real time (call
// Task.sleep or use ContinuousClock), unchanged but
// for the world (the rest of those files are validation diagrams, which Integrations'
// AsyncAlgorithmsPortsTests port on their own).
import AsyncAlgorithms
import MarbleTesting
import XCTest

final class TestDebounceRealClock: XCTestCase {
  // Marbles: every test of this class in a world of its own.
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  // `TestDebounce.test_Rethrows`
  func test_Rethrows() async throws {
    guard #available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *) else {
      throw XCTSkip("Skipped due to Clock/Instant/Duration availability")
    }

    let debounce = [1].async.debounce(for: .zero, clock: ContinuousClock())
    for await _ in debounce {}

    let throwingDebounce = [1].async.map { try throwOn(2, $0) }.debounce(for: .zero, clock: ContinuousClock())
    for try await _ in throwingDebounce {}
  }

  // `TestDebounce.test_debounce_when_cancelled`
  func test_debounce_when_cancelled() async throws {
    guard #available(macOS 13.0, iOS 16.0, watchOS 9.0, tvOS 16.0, *) else {
      throw XCTSkip("Skipped due to Clock/Instant/Duration availability")
    }

    let t = Task {
      try? await Task.sleep(nanoseconds: 1_000_000_000)
      let c1 = Indefinite(value: "test1").async
      for await _ in c1.debounce(for: .seconds(1), clock: .continuous) {}
    }
    t.cancel()
  }
}

final class TestCombineLatestRealClock: XCTestCase {
  // Marbles: every test of this class in a world of its own.
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  // `TestCombineLatest2.test_combineLatest_when_cancelled`
  func test_combineLatest_when_cancelled() async {
    let t = Task {
      try? await Task.sleep(nanoseconds: 1_000_000_000)
      let c1 = Indefinite(value: "test1").async
      let c2 = Indefinite(value: "test1").async
      for await _ in combineLatest(c1, c2) {}
    }
    t.cancel()
  }
}
