import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

/// Expectations whose failure type is `any Error` — async code — name the errors they compare:
/// two different errors, both drawn `#`, print differently.
@Suite struct AnyErrorFailuresTests {
  struct Offline: Error, CustomStringConvertible {
    var description: String { "the network is offline" }
  }

  /// The messages of the issues `body` records.
  static func issues(_ body: () throws -> Void) rethrows -> [String] {
    let messages = Mutex<[String]>([])
    try withKnownIssue {
      try body()
    } matching: { issue in
      messages.withLock { $0 += issue.comments.map(\.rawValue) }
      return true
    }
    return messages.withLock { $0 }
  }

  @Test func aTableSaysWhichErrorsDifferUnderItsRows() {
    let messages = Self.issues {
      assertTable(
        """
        prices  hot   -a-#
        out     gets  -a-#
        """
      ) { (sources: TableSources<String, TestError>) in
        Signal(sources["prices"].mapError { _ in Offline() as any Error }.values)
      }
    }
    #expect(
      messages == [
        """
        table failed
        prices  hot   -a-#
        out     gets  -a-#
                 was  -a-#
                         ^

        out got a different error `#` at frame 3:
          expected  TestError("error")
          actual    TestError("Offline: the network is offline")
        """
      ])
  }

  @Test func aMarbleSaysWhichErrorsDiffer() throws {
    let scheduler = TestScheduler()
    let prices = try scheduler.cold("-a-#").mapError { _ in Offline() as any Error }
    let messages = Self.issues {
      scheduler.expect(Signal(prices.values)).toBe("-a-#")
      scheduler.flush()
    }
    #expect(
      messages == [
        """
        marbles differ at frame 3
          expected  -a-#
          actual    -a-#
                       ^ expected error(TestError("error")) at frame 3, got \
        error(TestError("Offline: the network is offline"))
        """
      ])
  }

  @Test func anErrorOfYourOwnMatchesByItsName() throws {
    let scheduler = TestScheduler()
    let prices = try scheduler.cold("-a-#").mapError { _ in Offline() as any Error }
    scheduler.expect(Signal(prices.values)).toBe("-a-#", error: TestError(naming: Offline()))
    scheduler.flush()
    #expect(TestError(naming: Offline()) == TestError("Offline: the network is offline"))
    #expect(TestError(naming: TestError("x")) == TestError("x"))
  }
}
