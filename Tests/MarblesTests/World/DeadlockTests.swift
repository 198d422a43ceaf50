import Foundation
import MarbleTesting
import Marbles
import Synchronization
import TestSupport
import Testing

/// A world whose root waits with nothing ready or due is deadlocked: it fails at once — these
/// worlds give an hour of stall timeout, so a test that waited for it would never end — naming
/// every waiting task and what it waits for; then it cancels its work, and the root's waits end.
@Suite struct DeadlockTests {
  @Test func aRootWaitingForATaskThatWaitsForAStreamNobodyFeedsFailsAtOnce() async {
    let reports = Mutex<[String]>([])
    await withKnownIssue {
      let ended = await withVirtualTime(stallTimeout: .seconds(3600)) { _ in
        let (stream, feed) = AsyncStream<Int>.makeStream()
        let consumer = Task {
          for await _ in stream {}
          return "the consumer's loop ended"
        }
        let ended = await consumer.value
        withExtendedLifetime(feed) {}
        return ended
      }
      #expect(ended == "the consumer's loop ended")
    } matching: { issue in
      reports.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    let report = reports.withLock { $0 }.joined(separator: "\n")
    #expect(report.hasPrefix("The test's world is deadlocked at tick 0"), "\(report)")
    #expect(report.contains("- the test waits for the value of task 1"), "\(report)")
    #expect(
      report.contains(
        "- task 1 (started in "
          + "DeadlockTests.aRootWaitingForATaskThatWaitsForAStreamNobodyFeedsFailsAtOnce()) waits "
          + "in DeadlockTests.aRootWaitingForATaskThatWaitsForAStreamNobodyFeedsFailsAtOnce() for "
          + "a continuation that nothing in the world resumes"), "\(report)")
    #expect(report.contains("the world's work was cancelled, to end the test's waits"))
  }

  @Test func aForAwaitWhoseProducerNeverFinishesOnCancellationEnds() async {
    let reports = Mutex<[String]>([])
    await withKnownIssue {
      let seen = await withVirtualTime(stallTimeout: .seconds(3600)) { scheduler in
        let (gate, _) = AsyncStream<Void>.makeStream()
        let stream = AsyncStream<Int> { continuation in
          Task {
            continuation.yield(1)
            // Waits for a gate nothing opens, cancelled or not; never finishes the stream.
            for await _ in gate {}
            await withUnsafeContinuation { (_: UnsafeContinuation<Void, Never>) in }
          }
        }
        var seen: [Int] = []
        for await value in stream { seen.append(value) }
        return (seen, scheduler.now)
      }
      #expect(seen.0 == [1])
      #expect(seen.1 == 0)
    } matching: { issue in
      reports.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    let report = reports.withLock { $0 }.joined(separator: "\n")
    #expect(report.contains("deadlocked"), "\(report)")
    #expect(
      report.contains(
        "- the test waits in "
          + "DeadlockTests.aForAwaitWhoseProducerNeverFinishesOnCancellationEnds() for a continuation"
      ), "\(report)")
  }

  @Test func aDeadlockAfterTimeMovedSaysTheTick() async {
    await withKnownIssue {
      await withVirtualTime(stallTimeout: .seconds(3600)) { _ in
        try? await Task.sleep(for: .seconds(5))
        let never = Task {
          await withTaskCancellationHandler {
            await AsyncStream<Void>.makeStream().stream.first { _ in true }
          } onCancel: {
          }
        }
        _ = await never.value
      }
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix("The test's world is deadlocked at tick 5000")
        == true
    }
  }

  /// The report is recorded before the work is cancelled: a process that traps on a `try!` of a
  /// sleep that the cancellation ends still says why. (The test's own task is cancelled when its
  /// own wait needs it — here a stream nobody feeds — and not when the world's cancelled work
  /// ends its wait anyway: its test goes on past the world.)
  @Test func aTryOnACancelledSleepTrapsAfterTheReport() async {
    let stderr = Mutex("")
    await withKnownIssue {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        await withVirtualTime(stallTimeout: .seconds(3600)) { _ in
          let (stream, feed) = AsyncStream<Void>.makeStream()
          for await _ in stream {}
          withExtendedLifetime(feed) {}
          try! await Task.sleep(for: .seconds(1))
        }
      }
      stderr.withLock { $0 = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self) }
    } matching: { issue in
      // Recorded in the child process before it trapped, and carried to this test.
      issue.comments.first?.rawValue.hasPrefix("The test's world is deadlocked at tick 0") == true
    }
    #expect(stderr.withLock { $0 }.contains("CancellationError"), "the trap came after")
  }

  /// Work of the world that waits on something outside it — here a thread it started, which takes
  /// longer than the stall timeout — is waited for that long, then named.
  @Test func waitingOnAThreadLongerThanTheStallTimeoutFailsNamingIt() async {
    let reports = Mutex<[String]>([])
    await withKnownIssue {
      let value = await withVirtualTime(stallTimeout: .milliseconds(300)) { _ in
        await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
          Thread {
            Thread.sleep(forTimeInterval: 1)
            continuation.resume(returning: 7)
          }.start()
        }
      }
      #expect(value == 7, "the thread's value arrives in the end")
    } matching: { issue in
      reports.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    let report = reports.withLock { $0 }.joined(separator: "\n")
    #expect(
      report.hasPrefix(
        "The test's world waited 0.3 seconds of real time at tick 0 for work "
          + "outside it"), "\(report)")
    #expect(report.contains("1 piece of work the world handed to a thread or a Dispatch queue"))
  }

  /// Waiting on a thread that answers within the stall timeout is no failure.
  @Test func waitingOnAThreadThatAnswersInTimeIsFine() async {
    let value = await withVirtualTime { _ in
      await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        Thread {
          Thread.sleep(forTimeInterval: 0.2)
          continuation.resume(returning: 7)
        }.start()
      }
    }
    #expect(value == 7)
  }

  /// A block handed to a Dispatch queue is work outside the world too.
  @Test func waitingOnADispatchQueueThatAnswersIsFine() async {
    let value = await withVirtualTime { _ in
      await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        DispatchQueue.global().async {
          Thread.sleep(forTimeInterval: 0.2)
          continuation.resume(returning: 8)
        }
      }
    }
    #expect(value == 8)
  }
}

/// A deadlock touches nothing but its own world: the test's task is not cancelled when the
/// world's cancelled work ends its wait (it goes on past `withVirtualTime`, uncancelled), no
/// issue is recorded outside a test, and inside `withKnownIssue` the report is a known issue.
@Suite struct DeadlockNeighbourTests {
  @Test func theTestGoesOnUncancelledPastADeadlockedWorld() async throws {
    await withKnownIssue {
      await withVirtualTime(stallTimeout: .seconds(3600)) { _ in
        let consumer = Task { for await _ in AsyncStream<Int>.makeStream().stream {} }
        await consumer.value
      }
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix("The test's world is deadlocked at tick 0") == true
    }
    #expect(!Task.isCancelled, "the test's own task was cancelled by its world's deadlock")
    try await Task.sleep(for: .milliseconds(1))
  }
}
