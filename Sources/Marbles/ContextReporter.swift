import Dispatch
import MarbleTesting
@_spi(Internals) import Signals
import Synchronization
import Testing

/// Reports on the test from any thread, in the test's own context: a task made on the task that
/// opened the world carries its task locals — Swift Testing's `Test.current`, an exit test's —
/// and records each message, or runs each piece of work, there. It runs on a queue of its own,
/// not the cooperative pool, so that a busy pool does not hold a report back.
final class ContextReporter: WorldReporter {
  private struct Message: Sendable {
    enum Kind: Sendable {
      case issue(String, SchedulerSite, WaitingTask?)
      case warning(String, SchedulerSite)
      case work(@Sendable () -> Void)
    }

    var kind: Kind
    var done: DispatchSemaphore
  }

  private let messages: AsyncStream<Message>.Continuation
  private let recorder: Task<Void, Never>
  /// How many messages are sent and not known to be recorded: under way, or their sender stopped
  /// waiting for them (two seconds of real time passed) — the only ones that may still be
  /// unrecorded when the reporter finishes.
  private let unanswered = Atomic(0)

  init() {
    let (stream, messages) = AsyncStream.makeStream(of: Message.self)
    self.messages = messages
    recorder = Task(executorPreference: ReporterExecutor.shared) {
      for await message in stream {
        switch message.kind {
        case .issue(let text, let site, let task?):
          DirectReporter().report(text, at: site, asIfBy: task)
        case .issue(let text, let site, nil): DirectReporter().report(text, at: site)
        case .warning(let text, let site): DirectReporter().warn(text, at: site)
        case .work(let work): work()
        }
        RealTime.reading { _ = message.done.signal() }
      }
    }
  }

  func report(_ message: String, at site: SchedulerSite) {
    deliver(message, at: site, isWarning: false)
  }

  func report(_ message: String, at site: SchedulerSite, asIfBy task: WaitingTask) {
    deliver(message, at: site, isWarning: false, asIfBy: task)
  }

  func warn(_ message: String, at site: SchedulerSite) {
    deliver(message, at: site, isWarning: true)
  }

  func run(_ work: @escaping @Sendable () -> Void) {
    // NB: a reporter that has finished runs nothing: its test's context is gone, and work run
    // outside it (cancelling a test's task) is recorded on no test, as an API misuse.
    _ = send(.work(work))
  }

  /// Records on the test's own task directly; from elsewhere, through the recorder, waiting (a
  /// bounded time) until it is recorded. A reporter that has finished records directly.
  private func deliver(
    _ text: String, at site: SchedulerSite, isWarning: Bool, asIfBy task: WaitingTask? = nil
  ) {
    let direct = {
      if let task, !isWarning {
        DirectReporter().report(text, at: site, asIfBy: task)
      } else {
        DirectReporter().deliver(text, at: site, isWarning: isWarning)
      }
    }
    if Test.current != nil {
      direct()
      return
    }
    switch send(isWarning ? .warning(text, site) : .issue(text, site, task)) {
    case .recorded: break
    case .finished: direct()
    case .timedOut:
      let label = isWarning ? "warning" : "error"
      Platform.printError("\(site.filePath):\(site.line): \(label): \(text)\n")
    }
  }

  private enum Delivery {
    case recorded, finished, timedOut
  }

  /// Hands `kind` to the recorder and waits for it, at most two seconds of real time.
  private func send(_ kind: Message.Kind) -> Delivery {
    let done = DispatchSemaphore(value: 0)
    // NB: counted before it is handed over, so that a finish that sees the message taken sees it
    // counted too (the stream's lock orders the two).
    unanswered.add(1, ordering: .acquiringAndReleasing)
    guard case .enqueued = messages.yield(Message(kind: kind, done: done)) else {
      unanswered.subtract(1, ordering: .acquiringAndReleasing)
      return .finished
    }
    // A message whose sender stops waiting stays counted.
    guard done.wait(timeout: .now() + .seconds(2)) == .success else { return .timedOut }
    unanswered.subtract(1, ordering: .acquiringAndReleasing)
    return .recorded
  }

  /// Ends the reporter once every message it took is recorded: at once if each was answered (its
  /// sender waited for it), so that the test's task goes on where it is — the thread of the world
  /// that closes, where the test's next world then opens without waking another (phase p's W3).
  func finish() async {
    messages.finish()
    if unanswered.load(ordering: .acquiring) > 0 { await recorder.value }
  }

  func finishSoon() {
    messages.finish()
  }
}
