import CMarbleRuntime
import Foundation
import MarbleTesting
import Synchronization
import TestSupport
import Testing

/// The exploration turn handed on from a world's code: the exploration that waited for it — another
/// test's task, made after that world opened — is not taken into the world. In a loaded run of the
/// suite the turn was handed on from a test's world root (its first scheduler opened the world),
/// the waiting test's task was taken for a task that world's work had made, and the world's close
/// cancelled it: "✘ Test «unknown» … Attempted to cancel the current test", nine times.
@Suite struct ExplorationTurnsTests {
  /// Run alone, in a process of its own: in a full run other tests' explorations wait for the turn
  /// too, and may take it first, for longer than the fixture waits (it failed so in a fresh clone's
  /// full run).
  @Test func aTurnHandedOnFromAWorldLeavesTheNextExplorationOutOfItInAProcessOfItsOwn()
    async throws
  {
    guard ProcessInfo.processInfo.environment["MARBLES_TURNS_CHILD"] == nil else { return }
    let (status, output) = try await runTestsInAChildProcess(
      filter: "ExplorationTurnsTests/aTurnHandedOnFromAWorldLeavesTheNextExplorationOutOfIt\\(",
      environment: ["MARBLES_TURNS_CHILD": "1", "MARBLES_EXPLORE_EVERY_SCHEDULER": ""])
    #expect(status == 0, "\(output.suffix(3000))")
    #expect(output.contains("Test run with 1 test"), "\(output.suffix(3000))")
  }

  /// What the other exploration saw, and its task.
  final class Other: Sendable {
    let sawAWorld = Mutex<Bool?>(nil)
    let task = Mutex<Task<Void, Never>?>(nil)
  }

  @Test(.enabled(if: ProcessInfo.processInfo.environment["MARBLES_TURNS_CHILD"] != nil))
  func aTurnHandedOnFromAWorldLeavesTheNextExplorationOutOfIt() async {
    // The test's first scheduler opens its world: this test's task is the world's root.
    let scheduler = TestScheduler()
    let other = Other()
    await ExplorationTurns.inTurn {
      // Another test's exploration, made on a thread of no world, after the world opened.
      Platform.startThread {
        let task = Task.detached {
          await ExplorationTurns.inTurn { other.sawAWorld.withLock { $0 = World.current != nil } }
        }
        other.task.withLock { $0 = task }
      }
      RealTime.reading {
        while other.task.withLock({ $0 }) == nil || ExplorationTurns.waitingCount == 0 {
          usleep(1_000)
        }
      }
    }
    // The turn was handed on by the root's code, in its world: the other exploration runs now.
    RealTime.reading {
      for _ in 0..<10_000 where other.sawAWorld.withLock({ $0 }) == nil { usleep(1_000) }
    }
    #expect(other.sawAWorld.withLock { $0 } == false)
    _ = scheduler
  }
}
