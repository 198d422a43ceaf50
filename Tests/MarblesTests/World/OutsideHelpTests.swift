import Foundation
import MarbleTesting
import Marbles
import Synchronization
import TestSupport
import Testing

/// Outside help: a thread that existed before the world (a database driver's, a delegate
/// queue's), woken by the world's work, is waited for in real time — up to the stall timeout —
/// whenever nothing else of the world can move; a Dispatch block that the world's work hands over
/// is the world's own work, and so are the tasks it starts.
///
/// Serialized: the tests share one driver thread, which answers one query at a time — beside a
/// test whose query takes 1 s, a 0.3 s query waited 1.3 s and was reported as a stall (seen once,
/// under `--parallel` with the listings' type-checks running).
@Suite(.serialized) struct OutsideHelpTests {
  /// A driver's thread, started once for the whole process (before any world), that runs what it
  /// is given one at a time — woken through a condition.
  final class DriverThread: @unchecked Sendable {
    // NB: @unchecked: `work` is behind `condition`.
    private let condition = NSCondition()
    private var work: [@Sendable () -> Void] = []

    static let shared = DriverThread()

    private init() {
      Thread { [self] in
        while true {
          condition.lock()
          while work.isEmpty { condition.wait() }
          let next = work.removeFirst()
          condition.unlock()
          next()
        }
      }.start()
    }

    func submit(_ next: @escaping @Sendable () -> Void) {
      condition.lock()
      work.append(next)
      condition.signal()
      condition.unlock()
    }

    /// Answers after `seconds` of real work on the driver's thread.
    func query(taking seconds: TimeInterval) async -> Int {
      await withCheckedContinuation { continuation in
        submit {
          Thread.sleep(forTimeInterval: seconds)
          continuation.resume(returning: 42)
        }
      }
    }
  }

  @Test func aCallbackFromAThreadMadeBeforeTheWorldIsWaitedFor() async {
    _ = DriverThread.shared
    let (value, now) = await withVirtualTime { scheduler in
      (await DriverThread.shared.query(taking: 0.3), scheduler.now)
    }
    #expect(value == 42)
    #expect(now == 0, "the world waited in real time, and moved no virtual time")
  }

  /// While the world waits for a thread its work woke, something else from outside arrives that
  /// brings nothing to run now (an action scheduled 100 s ahead, from another thread made before
  /// the world): the world moves to it and runs it, then goes on waiting for the woken thread —
  /// the arrival was not the thread's answer. (It was taken for one: "deadlocked at tick 0",
  /// reported at once, 1 run in about 30 when a stale wake-up ended the wait.)
  @Test func anArrivalThatBringsNothingToRunIsNotTheWokenThreadsAnswer() async {
    _ = DriverThread.shared
    let handOver = Mutex<TestScheduler?>(nil)
    let poked = Mutex(false)
    let poker = Thread {
      while handOver.withLock({ $0 }) == nil { usleep(1_000) }
      usleep(50_000)  // into the driver's 300 ms of work
      handOver.withLock { $0 }?.schedule(after: .seconds(100)) { poked.withLock { $0 = true } }
    }
    poker.start()
    let (value, now) = await withVirtualTime { scheduler in
      handOver.withLock { $0 = scheduler }
      return (await DriverThread.shared.query(taking: 0.3), scheduler.now)
    }
    #expect(value == 42)
    #expect(poked.withLock { $0 }, "the action from outside ran")
    #expect(now == 100_000, "the world moved to the action, then waited for the answer")
  }

  /// Woken, the thread does not answer within the stall timeout: the world gives up then, naming
  /// the thread it woke (the answer, when it comes, still ends the test's wait).
  @Test func aWokenThreadThatDoesNotAnswerInTimeIsReportedAfterTheStallTimeout() async {
    _ = DriverThread.shared
    let report = Mutex("")
    await withKnownIssue {
      await withVirtualTime(stallTimeout: .milliseconds(300)) { _ in
        _ = await DriverThread.shared.query(taking: 1)
      }
    } matching: { issue in
      report.withLock { $0 = issue.comments.map(\.rawValue).joined() }
      return true
    }
    let text = report.withLock { $0 }
    #expect(text.hasPrefix("The test's world waited 0.3 seconds of real time at tick 0"), "\(text)")
    #expect(text.contains("work of the world woke a thread outside it"), "\(text)")
  }

  /// A block the world's work hands to a queue is the world's: the task it starts sleeps in
  /// virtual time, and the world waits for it instead of calling its state a deadlock.
  @Test(.virtualTime) func aTaskStartedInAWorldsDispatchBlockIsTheWorlds() async throws {
    let start = ContinuousClock.now
    let slept = await withCheckedContinuation {
      (continuation: CheckedContinuation<Duration, Never>) in
      DispatchQueue.global().async {
        Task {
          let before = ContinuousClock.now
          try? await Task.sleep(for: .seconds(2))
          continuation.resume(returning: ContinuousClock.now - before)
        }
      }
    }
    #expect(slept == .seconds(2))
    #expect(ContinuousClock.now - start == .seconds(2))
    #expect(TestScheduler.current?.now == 2000)
  }

  /// What a reply from outside does, raced against a virtual timeout. A thread outside the world
  /// is waited for only when nothing of the world can move: a timeout due in virtual time goes
  /// first — at once, in real time.
  @Test(.virtualTime) func aReplyFromAThreadOutsideLosesToAVirtualTimeout() async {
    _ = DriverThread.shared
    await #expect(throws: TimeoutError.self) {
      try await withTimeout(.seconds(1)) { await DriverThread.shared.query(taking: 0.3) }
    }
    #expect(TestScheduler.current?.now == 1000)
  }
}
