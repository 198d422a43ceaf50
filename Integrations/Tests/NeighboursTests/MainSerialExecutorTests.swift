import ConcurrencyExtras
import MarbleTesting
import Testing

/// Marbles and swift-concurrency-extras' `withMainSerialExecutor` in one test process. Both set the
/// runtime's global enqueue hook: `withMainSerialExecutor` sets its own and, when it ends, sets it
/// back by a Bool (`uncheckedUseMainSerialExecutor`), not to the hook it found; Marbles installs
/// its own when the first world opens, chained to the one it found, and puts that one back when the
/// last world closes. Run one after another in any order, and with a world opened inside
/// `withMainSerialExecutor`, each keeps its order, and no hook is left behind.
///
/// `withMainSerialExecutor` sets a hook for the whole process, so nothing may run beside these
/// tests: `make test` runs them in a process of their own (`--filter NeighboursTests`), after the
/// other Integrations tests (`--skip NeighboursTests`).
@Suite(.serialized) struct MainSerialExecutorTests {
  /// pointfreeco/swift-concurrency-extras 1.4.3,
  /// `Tests/ConcurrencyExtrasTests/MainSerialExecutorTests.swift`, `testSerializedExecution`, as
  /// written (`XCTAssertEqual` becomes `#expect`).
  @MainActor static func serializedExecution() async {
    let xs = LockIsolated<[Int]>([])
    await withMainSerialExecutor {
      await withTaskGroup(of: Void.self) { group in
        for x in 1...1000 {
          group.addTask {
            xs.withValue { $0.append(x) }
          }
        }
      }
    }
    #expect(Array(1...1000) == xs.value)
  }

  /// Tasks a test starts in a world of its own, each on and off the main actor and asleep for a
  /// virtual millisecond: driven by the scheduler in the order they were started, every time.
  @MainActor static func drivenTasksKeepTheirOrder() {
    withVirtualTime { scheduler in
      let log = LockIsolated<[String]>([])
      for index in 0..<3 {
        Task {
          log.withValue { $0.append("\(index) off") }
          await MainActor.run { log.withValue { $0.append("\(index) on main") } }
          try await scheduler.clock.sleep(for: .milliseconds(1))
          log.withValue { $0.append("\(index) woke") }
        }
      }
      scheduler.run()
      #expect(
        log.value == [
          "0 off", "1 off", "2 off", "0 on main", "1 on main", "2 on main", "0 woke", "1 woke",
          "2 woke",
        ])
    }
  }

  /// The same, with the scheduler made inside `withMainSerialExecutor`.
  @MainActor static func aSchedulerInsideMainSerialExecutor() async {
    await withMainSerialExecutor { () async in
      drivenTasksKeepTheirOrder()
    }
  }

  static let parts: [String: @MainActor () async -> Void] = [
    "withMainSerialExecutor": { await serializedExecution() },
    "Marbles": { drivenTasksKeepTheirOrder() },
    "Marbles inside withMainSerialExecutor": { await aSchedulerInsideMainSerialExecutor() },
  ]

  /// Every order of the three, each five times in a row.
  static let orders: [[String]] = [
    ["withMainSerialExecutor", "Marbles", "Marbles inside withMainSerialExecutor"],
    ["withMainSerialExecutor", "Marbles inside withMainSerialExecutor", "Marbles"],
    ["Marbles", "withMainSerialExecutor", "Marbles inside withMainSerialExecutor"],
    ["Marbles", "Marbles inside withMainSerialExecutor", "withMainSerialExecutor"],
    ["Marbles inside withMainSerialExecutor", "withMainSerialExecutor", "Marbles"],
    ["Marbles inside withMainSerialExecutor", "Marbles", "withMainSerialExecutor"],
  ]

  @MainActor @Test(arguments: orders)
  func oneAfterAnotherInAnyOrder(_ order: [String]) async {
    for _ in 0..<5 {
      for part in order {
        await Self.parts[part]!()
        // Nothing is left behind: the runtime's global hook is unset again.
        #expect(!uncheckedUseMainSerialExecutor, "after \(part)")
      }
    }
  }
}
