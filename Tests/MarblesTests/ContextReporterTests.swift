import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Marbles

/// The reporter a world makes in a Swift Testing test: what it has taken is recorded before it
/// says it has finished.
@Suite struct ContextReporterTests {
  final class Flag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
  }

  /// A message still under way when the reporter finishes — queued behind a piece of work that
  /// holds the recorder — is recorded before `finish()` returns. (On `cf56c63`, which awaited the
  /// recorder only for messages whose sender had stopped waiting, `finish()` returned at once and
  /// the message ran after it.)
  @Test func aMessageUnderWayWhenTheReporterFinishesIsRecordedFirst() async {
    let reporter = ContextReporter()
    let ran = Flag()
    startHoldingTheRecorder(reporter, forSeconds: 1.0)
    sendFromAThread(reporter) { ran.set() }
    await reporter.finish()
    #expect(ran.isSet)
  }

  /// Starts, from a thread of its own, a piece of work that holds the recorder for `seconds`, and
  /// returns once it runs.
  func startHoldingTheRecorder(_ reporter: ContextReporter, forSeconds seconds: Double) {
    let started = DispatchSemaphore(value: 0)
    Thread {
      reporter.run {
        started.signal()
        Thread.sleep(forTimeInterval: seconds)
      }
    }.start()
    started.wait()
  }

  /// Sends `work` to the reporter from a thread of its own, and returns a moment after: long
  /// enough for the thread to have handed it over (the recorder is held, so it waits there).
  func sendFromAThread(_ reporter: ContextReporter, _ work: @escaping @Sendable () -> Void) {
    let sending = DispatchSemaphore(value: 0)
    Thread {
      sending.signal()
      reporter.run(work)
    }.start()
    sending.wait()
    Thread.sleep(forTimeInterval: 0.3)
  }
}
