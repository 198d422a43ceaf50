import Signals
import Testing

/// Misuse traps with a clear precondition message. Exit tests run each body in a child process;
/// each test checks both that it crashed and what it printed.
@Suite("Misuse")
struct MisuseTests {
  /// What the child process printed to standard error.
  func standardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
  }

  @Test("ReplaySubject(capacity: -1) traps with a clear message")
  func negativeReplayCapacity() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ReplaySubject<Int, Never>(capacity: -1)
    }
    #expect(standardError(result).contains("replay capacity must not be negative (got -1)"))
  }

  @Test("ImmediateScheduler cannot run a repeating action")
  func immediateRepeating() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ImmediateScheduler().schedule(after: .zero, interval: .seconds(1)) {}
    }
    #expect(standardError(result).contains("ImmediateScheduler cannot run a repeating action"))
  }

  @Test("QueueScheduler needs a positive interval")
  func queueZeroInterval() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      QueueScheduler().schedule(after: .zero, interval: .zero) {}
    }
    #expect(standardError(result).contains("A repeating action needs a positive interval"))
  }
}
