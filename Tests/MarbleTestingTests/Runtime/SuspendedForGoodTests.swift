import CMarbleRuntime
import Testing

@testable import MarbleTesting

// The world's loop lets the job that opened a world go — and starts stepping the world's work and
// moving its time — only once the root has suspended for good. The runtime flags a task
// suspended before it awaits: on a continuation it then tries to mark the continuation awaited,
// on a task's value it then joins the task's waiters, and where a resumption came first (world
// work the loop ran at once) it flags the task running again and goes on on the same thread,
// beside the loop. These tests lay out, in memory, the states a task passes through in that
// moment, as the runtime lays them out (`RuntimeFacts` checks the offsets against real tasks),
// and ask the loop's question of each (46.10: one world in about 3,000,000 ended at the wrong
// tick, its root running on while the loop moved time).
#if MARBLES_TESTED_RUNTIME

  @Suite struct SuspendedForGood {
    /// A task's bytes, a dependency record and what it points at, as the runtime lays them out
    /// on 64-bit platforms: the status word at 96, the innermost record at 104; the record's
    /// kind at 32, what it depends on at 16; a continuation's status at 24; a task's completion
    /// flag (0x2000) in its status word.
    final class Layout {
      let task = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
      let record = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
      let object = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)

      init(flags: UInt32, kind: UInt32) {
        for bytes in [task, object] {
          bytes.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
        }
        record.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
        task.storeBytes(of: flags, toByteOffset: 96, as: UInt32.self)
        task.storeBytes(of: record, toByteOffset: 104, as: UnsafeMutableRawPointer.self)
        record.storeBytes(of: object, toByteOffset: 16, as: UnsafeMutableRawPointer.self)
        record.storeBytes(of: kind, toByteOffset: 32, as: UInt32.self)
      }

      deinit {
        task.deallocate()
        record.deallocate()
        object.deallocate()
      }

      var ref: MarblesJobRef { OpaquePointer(task) }

      /// A continuation's status: 0 pending, 1 awaited, 2 resumed.
      func continuation(_ status: Int) -> Self {
        object.storeBytes(of: status, toByteOffset: 24, as: Int.self)
        return self
      }

      /// The awaited task's status word.
      func awaitedTask(flags: UInt32) -> Self {
        object.storeBytes(of: flags, toByteOffset: 96, as: UInt32.self)
        return self
      }
    }

    static let suspendedOnADependency: UInt32 = 0x4000
    static let running: UInt32 = 0x800

    @Test func aTaskFlaggedSuspendedBeforeItAwaitsItsContinuationHasNotSuspendedYet() {
      let layout = Layout(flags: Self.suspendedOnADependency, kind: 2).continuation(0)
      #expect(!Jobs.hasSuspended(layout.ref))
    }

    @Test func aTaskWhoseContinuationWasResumedBeforeItAwaitedGoesOnAndHasNotSuspended() {
      let layout = Layout(flags: Self.suspendedOnADependency, kind: 2).continuation(2)
      #expect(!Jobs.hasSuspended(layout.ref))
    }

    @Test func aTaskThatAwaitedItsContinuationHasSuspended() {
      let layout = Layout(flags: Self.suspendedOnADependency, kind: 2).continuation(1)
      #expect(Jobs.hasSuspended(layout.ref))
    }

    @Test func aTaskThatAwaitsATaskThatHasCompletedGoesOnAndHasNotSuspended() {
      let layout = Layout(flags: Self.suspendedOnADependency, kind: 1).awaitedTask(flags: 0x2000)
      #expect(!Jobs.hasSuspended(layout.ref))
    }

    @Test func aTaskThatAwaitsATaskStillRunningHasSuspended() {
      let layout = Layout(flags: Self.suspendedOnADependency, kind: 1).awaitedTask(flags: 0x800)
      #expect(Jobs.hasSuspended(layout.ref))
    }

    @Test func aRunningTaskHasNotSuspended() {
      let layout = Layout(flags: Self.running, kind: 2).continuation(1)
      #expect(!Jobs.hasSuspended(layout.ref))
    }

    @Test func aTaskWaitingForItsGroupHasSuspended() {
      // NB: the group's lock makes its wait whole: an offer waits until the waiter is queued.
      let layout = Layout(flags: Self.suspendedOnADependency, kind: 3)
      #expect(Jobs.hasSuspended(layout.ref))
    }
  }

#endif
