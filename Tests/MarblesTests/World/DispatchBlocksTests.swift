import Foundation
import MarbleTesting
import Marbles
import TestSupport
import Testing

/// Every way the Dispatch overlay hands a block to a queue makes it the world's work, runnable
/// until it has run: `async`, `async(flags: .barrier)` (`dispatch_barrier_async`) and
/// `async(group:)` (`dispatch_group_async`). While one is under way the world never moves time:
/// its reply — after real work — beats a virtual timeout, as a plain `async` block's does
/// (`OutsideRaceSnippetTests`).
///
/// Found from a port's flake: Nimble's `testWaitUntilOperationQueueWithMainUnderlyingQueueAndBarrier`
/// ("Waited more than 1.0 second" after 9 ms of real time, 2 runs in 10 with a busy core). An
/// `OperationQueue` hands its barrier to `dispatch_barrier_async`, which was not counted: when the
/// operation before it ended, the world saw nothing of its own under way and moved to the timeout.
@Suite struct DispatchBlocksTests {
  /// Resumes with 7 after 0.2 s of real work in a block handed over by `submit`.
  static func reply(submittedBy submit: (@escaping @Sendable () -> Void) -> Void) async -> Int {
    await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
      submit {
        Thread.sleep(forTimeInterval: 0.2)  // real work, while virtual time stands still
        continuation.resume(returning: 7)
      }
    }
  }

  @Test(.virtualTime) func aBarrierBlockIsTheWorldsWork() async throws {
    let queue = DispatchQueue(label: "barrier", attributes: .concurrent)
    let value = try await withTimeout(.seconds(1)) {
      await Self.reply { work in queue.async(flags: .barrier, execute: work) }
    }
    #expect(value == 7)
    #expect(TestScheduler.current?.now == 0)
  }

  @Test(.virtualTime) func aBlockOfAGroupIsTheWorldsWork() async throws {
    let group = DispatchGroup()
    let value = try await withTimeout(.seconds(1)) {
      await Self.reply { work in DispatchQueue.global().async(group: group, execute: work) }
    }
    #expect(value == 7)
    #expect(TestScheduler.current?.now == 0)
    // The block leaves the group once it returns, a moment after it answered.
    var left = group.wait(timeout: .now()) == .success
    for _ in 0..<5_000 where !left {
      usleep(1_000)
      left = group.wait(timeout: .now()) == .success
    }
    #expect(left, "the group's block left it")
  }

  /// A work item with flags of its own (the overlay's other path to `dispatch_group_async`).
  @Test(.virtualTime) func aWorkItemOfAGroupIsTheWorldsWork() async throws {
    let group = DispatchGroup()
    let value = try await withTimeout(.seconds(1)) {
      await Self.reply { work in
        DispatchQueue.global().async(
          group: group, execute: DispatchWorkItem(qos: .utility, block: work))
      }
    }
    #expect(value == 7)
    #expect(TestScheduler.current?.now == 0)
  }

  /// The port's shape: an operation, then a barrier block that answers. The barrier goes to its
  /// queue from the operation's own block as that ends.
  @Test(.virtualTime) func anOperationQueuesBarrierIsTheWorldsWork() async throws {
    let value = try await withTimeout(.seconds(1)) {
      await Self.reply { work in
        let operations = OperationQueue()
        operations.addOperation { Thread.sleep(forTimeInterval: 0.05) }
        operations.addBarrierBlock(work)
      }
    }
    #expect(value == 7)
    #expect(TestScheduler.current?.now == 0)
  }

  /// A group's notify, once its group is empty, is runnable until it has run: the world does not
  /// move time between the group's last block and the notify. (On `ad5723c` the world moved to
  /// the timeout in that moment, 3 runs in 5: the block's count ended before it left the group,
  /// and the notify was never counted.)
  @Test(.virtualTime, arguments: 0..<10) func aGroupsNotifyIsTheWorldsWorkOnceTheGroupIsEmpty(
    _ run: Int
  ) async throws {
    let group = DispatchGroup()
    let value = try await withTimeout(.seconds(1)) {
      await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        DispatchQueue.global().async(group: group) { Thread.sleep(forTimeInterval: 0.02) }
        group.notify(queue: .global()) { continuation.resume(returning: 7) }
      }
    }
    #expect(value == 7)
    #expect(TestScheduler.current?.now == 0)
  }

  /// While its group has work in it, a notify is not runnable: that work may wait for time to
  /// move, and time moves.
  @Test(.virtualTime) func aGroupWaitingForVirtualTimeLetsTimeMoveBeforeItsNotify() async {
    let group = DispatchGroup()
    group.enter()
    Task {
      try? await Task.sleep(for: .seconds(2))
      group.leave()
    }
    let now = await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
      group.notify(queue: .main) { continuation.resume(returning: TestScheduler.current?.now) }
    }
    #expect(now == 2000, "the notify ran as the world's work, at the group's end")
    #expect(TestScheduler.current?.now == 2000)
  }

  /// A work item's notify is the same: libdispatch hands it to its group's notify (the item's own
  /// group), which the world follows. (Before `1a54bd1` it timed out.)
  @Test(.virtualTime, arguments: 0..<10) func aWorkItemsNotifyIsTheWorldsWorkOnceTheItemRan(
    _ run: Int
  ) async throws {
    let value = try await withTimeout(.seconds(1)) {
      await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
        let item = DispatchWorkItem { Thread.sleep(forTimeInterval: 0.02) }
        item.notify(queue: .global()) {
          continuation.resume(returning: TestScheduler.current == nil ? 0 : 7)
        }
        DispatchQueue.global().async(execute: item)
      }
    }
    #expect(value == 7, "the notify ran as the world's work")
    #expect(TestScheduler.current?.now == 0)
  }
}
