import MarbleTesting
import Marbles
import Synchronization
import Testing

/// A report names each waiting task by the function its `Task {}`, `async let` or `addTask` was
/// written in, when the task has no name of its own (issue 49.3): the user reads "task 2 (started
/// in FeedLoader.start())" instead of searching their app for "task 2".
@Suite struct StartSiteTests {
  /// An app's type that starts its work the ways an app does.
  struct FeedLoader {
    let updates: AsyncStream<Int>

    /// A plain `Task {}` in a method: named by the method.
    func start() -> Task<Int, Never> {
      Task {
        var count = 0
        for await _ in updates { count += 1 }
        return count
      }
    }

    /// An `async let`: named by the function that wrote it.
    func loadBoth() async -> Int {
      async let first = firstUpdate()
      async let second = firstUpdate()
      return await first + second
    }

    /// Task-group children: named by the function around the group.
    func loadInGroup() async -> Int {
      await withTaskGroup(of: Int.self) { group in
        group.addTask { await firstUpdate() }
        return await group.reduce(0, +)
      }
    }

    private func firstUpdate() async -> Int {
      for await value in updates { return value }
      return 0
    }
  }

  /// The report of a deadlock that `body` runs into.
  private func deadlockReport(_ body: @escaping @Sendable (FeedLoader) async -> Void) async
    -> String
  {
    let reports = Mutex<[String]>([])
    await withKnownIssue {
      await withVirtualTime(stallTimeout: .seconds(3600)) { _ in
        let (updates, feed) = AsyncStream<Int>.makeStream()
        await body(FeedLoader(updates: updates))
        withExtendedLifetime(feed) {}
      }
    } matching: { issue in
      reports.withLock { $0.append(issue.comments.map(\.rawValue).joined()) }
      return true
    }
    // NB: the world cancels its own work, never the test: its waits end as the work ends.
    #expect(!Task.isCancelled, "the deadlock cancelled the test's own task")
    return reports.withLock { $0 }.joined(separator: "\n")
  }

  @Test func aPlainTaskIsNamedByTheMethodThatStartedIt() async {
    let report = await deadlockReport { loader in _ = await loader.start().value }
    #expect(
      report.contains("- task 1 (started in StartSiteTests.FeedLoader.start()) waits"), "\(report)")
  }

  @Test func anAsyncLetIsNamedByTheFunctionThatWroteIt() async {
    let report = await deadlockReport { loader in _ = await loader.loadBoth() }
    #expect(
      report.contains(
        "(started in StartSiteTests.FeedLoader.loadBoth()) waits in "
          + "StartSiteTests.FeedLoader.firstUpdate() for a continuation"), "\(report)")
  }

  @Test func aGroupChildIsNamedByTheFunctionAroundTheGroup() async {
    let report = await deadlockReport { loader in _ = await loader.loadInGroup() }
    #expect(
      report.contains(
        "(started in StartSiteTests.FeedLoader.loadInGroup()) waits in "
          + "StartSiteTests.FeedLoader.firstUpdate() for a continuation"), "\(report)")
  }

  @Test func aNamedTaskKeepsItsName() async {
    let report = await deadlockReport { loader in
      let scheduler = TestScheduler()
      let task = scheduler.task(name: "feed") { await loader.start().value }
      _ = try? await task.value
    }
    #expect(report.contains("- feed waits"), "\(report)")
    #expect(!report.contains("feed (started in"), "\(report)")
  }
}
