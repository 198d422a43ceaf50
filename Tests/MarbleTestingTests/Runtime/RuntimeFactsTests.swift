import CMarbleRuntime
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import MarbleTesting

// The facts about the Swift runtime, Foundation and Dispatch that the driven world relies on and
// that no public API promises, one test named after each ("How it works" in the async article
// lists the same). They hold on the toolchains the runtime code is compiled for
// (`MARBLES_TESTED_RUNTIME`, Package.swift); a new toolchain that breaks one fails here first.
#if MARBLES_TESTED_RUNTIME

  @Suite struct RuntimeFacts {
    /// A task executor that keeps the jobs enqueued on it.
    final class Catching: TaskExecutor, @unchecked Sendable {
      // NB: @unchecked: `jobs` is behind its mutex.
      let jobs = Mutex<[UnownedJob]>([])
      func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
      }
      func runAll() {
        for job in jobs.withLock({ jobs in
          defer { jobs = [] }; return jobs
        }) {
          job.runSynchronously(on: asUnownedTaskExecutor())
        }
      }
    }

    /// Looks every millisecond, for about a second at most, until `isSo`; whether it became so.
    static func lookUntil(_ isSo: () -> Bool) async -> Bool {
      for _ in 0..<1_000 {
        if isSo() { return true }
        try? await Task.sleep(for: .milliseconds(1))
      }
      return false
    }

    final class Marks: Sendable {
      let value = Mutex<[Bool]>([])
    }

    @Test func aJobsKindByteSaysItIsATasksAndItsIdIsTheTasks() async {
      let executor = Catching()
      let task = Task(executorPreference: executor) { Jobs.currentTaskID }
      let job = executor.jobs.withLock { $0.first }
      let jobTaskID = job.flatMap { Jobs.taskID(of: $0) }
      executor.runAll()
      let taskID = await task.value
      #expect(jobTaskID != nil)
      #expect(jobTaskID == taskID)
    }

    /// An `async let`'s child says so in its job flags (bit 28), and no other task does: the
    /// registry lets such a child go before its parent runs on, since the parent's scope frees it.
    @Test func anAsyncLetsChildIsMarkedInItsJobFlags() async {
      func isAsyncLetChild() -> Bool { Jobs.currentTask.map(Jobs.isAsyncLetChild) ?? false }
      async let child = isAsyncLetChild()
      let plain = await Task { isAsyncLetChild() }.value
      let groupChild = await withTaskGroup(of: Bool.self) { group in
        group.addTask { isAsyncLetChild() }
        return await group.next() ?? true
      }
      #expect(await child)
      #expect(!plain)
      #expect(!groupChild)
      #expect(!isAsyncLetChild(), "the test's own task")
    }

    /// A task suspended on a continuation keeps its resume function and context where the reports
    /// read them (offsets 56 and 64): its async frames name the function that awaits.
    @Test func aSuspendedTasksAsyncFramesNameTheFunctionThatAwaits() async {
      // NB: the task is made here, not by a helper: its frames must name this function.
      let (stream, feed) = AsyncStream<Int>.makeStream()
      let task = Task { () -> Int in
        var count = 0
        for await _ in stream { count += 1 }
        return count
      }
      let handle = unsafeBitCast(task, to: MarblesJobRef.self)
      // Wait until it is suspended on the stream's continuation.
      var named: String?
      if await Self.lookUntil({ Jobs.status(of: handle).dependency == .continuation }) {
        named = StartSites.function(waitingIn: handle)
      }
      feed.finish()
      _ = await task.value
      #expect(
        named?.hasPrefix("RuntimeFacts.aSuspendedTasksAsyncFramesNameTheFunctionThatAwaits()")
          == true, "\(String(describing: named))")
    }

    @TaskLocal static var place: String = "nowhere"
    @TaskLocal static var count: Int = 0

    /// A suspended task's task-local bindings — its own and its parent's, the newest of each —
    /// are read and bound on another task for a call (``TaskLocals``), and gone after it.
    @Test func aSuspendedTasksBindingsAreBoundForACallElsewhere() async {
      let (stream, feed) = AsyncStream<Int>.makeStream()
      let task = Self.$count.withValue(7) {
        Task {
          await Self.$place.withValue("outer") {
            await Self.$place.withValue("inner") {
              for await _ in stream {}
            }
          }
        }
      }
      var seen: (String, Int)?
      for _ in 0..<1_000 {
        let handle = unsafeBitCast(task, to: MarblesJobRef.self)
        if Jobs.status(of: handle).dependency == .continuation {
          seen = TaskLocals.withBindings(of: WaitingTask(handle)) { (Self.place, Self.count) }
          break
        }
        try? await Task.sleep(for: .milliseconds(1))
      }
      feed.finish()
      await task.value
      #expect(TaskLocals.canRead)
      #expect(seen?.0 == "inner", "\(String(describing: seen))")
      #expect(seen?.1 == 7, "\(String(describing: seen))")
      #expect(Self.place == "nowhere" && Self.count == 0, "popped after the call")
    }

    /// A task that has awaited its continuation says so where the world reads it (the
    /// continuation's status, offset 24 of its context, is "awaited"); a task that awaits another
    /// task's value, not yet given, has suspended too; a task that runs has not.
    @Test func aTaskThatAwaitsItsContinuationOrAnUnfinishedTaskHasSuspendedForGood() async {
      let (stream, feed) = AsyncStream<Int>.makeStream()
      let reader = Task { () -> Int in
        var count = 0
        for await _ in stream { count += 1 }
        return count
      }
      let waiter = Task { await reader.value }
      let readerRef = unsafeBitCast(reader, to: MarblesJobRef.self)
      let waiterRef = unsafeBitCast(waiter, to: MarblesJobRef.self)
      var readerSuspended = false
      var waiterSuspended = false
      if await Self.lookUntil({
        Jobs.status(of: readerRef).dependency == .continuation
          && Jobs.status(of: waiterRef).dependency != nil
      }) {
        readerSuspended = Jobs.hasSuspended(readerRef)
        waiterSuspended = Jobs.hasSuspended(waiterRef)
      }
      let running = Jobs.hasSuspended(try! #require(Jobs.currentTask))
      feed.finish()
      #expect(await waiter.value == 0)
      #expect(readerSuspended, "suspended on its stream's awaited continuation")
      #expect(waiterSuspended, "suspended on a task not yet finished")
      #expect(!running, "the test's own task, which runs")
      #expect(Jobs.hasSuspended(readerRef), "a finished task")
    }

    @Test func taskIDsGrowWithCreation() async {
      let first = Jobs.nextTaskID()
      let task = Task { Jobs.currentTaskID }
      let second = Jobs.nextTaskID()
      let id = try! #require(await task.value)
      #expect(first < id && id < second)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aTaskImmediatesFirstStepsRunOnTheGenericExecutorMarkedTwo() async {
      let marks = Marks()
      await Task.detached {
        Task.immediate { marks.value.withLock { $0.append(Jobs.isSynchronousStart) } }
        marks.value.withLock { $0.append(Jobs.isSynchronousStart) }
      }.value
      #expect(marks.value.withLock { $0 } == [true, false])
    }

    /// An actor that notes the thread it runs on.
    actor Touch {
      let thread = Mutex<UInt?>(nil)
      func touch() { thread.withLock { $0 = ThreadSlot.threadID } }
    }

    /// On the generic executor marked `2` the runtime never takes an actor on the job's thread: a
    /// call onto a free actor is enqueued there (an explored world step runs a task's job so, and
    /// which task reaches an actor first is a choice), while the same call from the generic
    /// executor unmarked goes on on the caller's thread at once.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func theGenericExecutorMarkedTwoNeverTakesAnActorOnItsThread() async {
      let (immediate, plain) = await Task.detached { () -> (Bool, Bool) in
        let marked = Touch()
        let task = Task.immediate { await marked.touch() }
        // Taken here, it would have run on this thread before `Task.immediate` returned.
        let here = ThreadSlot.threadID
        let tookItHere = marked.thread.withLock { $0 } == here
        await task.value
        let unmarked = Touch()
        await unmarked.touch()
        return (tookItHere, unmarked.thread.withLock { $0 } == ThreadSlot.threadID)
      }.value
      #expect(!immediate, "the marked executor's call onto the actor was enqueued")
      #expect(plain, "the unmarked generic executor's call ran on its own thread")
    }

    @Test func aCancelledTasksStatusSaysSoBeforeItsHandlersRun() async {
      let (before, inHandler) = await Task {
        // NB: the handler runs on this task, where the current task is still this one.
        let before = marbles_task_is_cancelled(Jobs.currentTask!) != 0
        let inHandler = Mutex(false)
        await withTaskCancellationHandler {
          withUnsafeCurrentTask { $0?.cancel() }
        } onCancel: {
          inHandler.withLock { $0 = marbles_task_is_cancelled(Jobs.currentTask!) != 0 }
        }
        return (before, inHandler.withLock { $0 })
      }.value
      #expect(!before)
      #expect(inHandler)
    }

    /// A task that was on the main actor before Marbles' hooks came back there through the
    /// runtime's own main executor, which hands the job to the main queue with `dispatch_async_f`
    /// and a function of the concurrency runtime (on Linux; `dispatch_async_swift_job` on Darwin):
    /// Marbles' wrapper of that call sees it.
    @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
    @Test func theRuntimesMainExecutorHandsAJobToTheMainQueueThroughDispatchAsyncF() {
      DefaultExecutor.install()
      VirtualDispatch.install()
      let executor = Catching()
      let task = Task(executorPreference: executor) { 42 }
      let job = try! #require(executor.jobs.withLock { $0.first })
      let before = marbles_main_queue_jobs_seen()
      SleepRouter.main.enqueue(ExecutorJob(job))
      let seen = marbles_main_queue_jobs_seen()
      #expect(seen > before)
      _ = task
    }

    @Test func theDefaultExecutorCanBeReplaced() {
      _ = TestScheduler()
      #expect(DefaultExecutor.isRouting)
    }

    @Test func everyStandardReadingOfTimeReachesTheClockWrapper() {
      #expect(Platform.readsVirtualTime)
      #expect(RuntimeHooks.isAvailable && RuntimeHooks.readingsCanBeVirtual)
      let readings: [(String, () -> Void)] = [
        ("ContinuousClock.now", { _ = ContinuousClock.now }),
        ("SuspendingClock.now", { _ = SuspendingClock.now }),
        ("Date()", { _ = Date() }),
        ("DispatchTime.now()", { _ = DispatchTime.now() }),
        ("DispatchWallTime.now()", { _ = DispatchWallTime.now() }),
        ("ProcessInfo.systemUptime", { _ = ProcessInfo.processInfo.systemUptime }),
      ]
      for (name, read) in readings {
        let before = marbles_thread_reading_count()
        read()
        #expect(marbles_thread_reading_count() > before, "\(name) did not reach the clock wrapper")
      }
    }
  }

  /// Swift code, and the Swift runtime's task creation, keep frame pointers on the toolchains
  /// Marbles is built with: the chain of frame pointers gives the same callers as the unwinder —
  /// what a report's start sites are read from (`StartSites`), about a hundred times cheaper.
  @Suite struct FramePointerFacts {
    @inline(never) static func bothBacktraces() -> (walked: [UInt], unwound: [UInt]) {
      var walked = [UnsafeMutableRawPointer?](repeating: nil, count: 12)
      var unwound = [UnsafeMutableRawPointer?](repeating: nil, count: 12)
      let walkedCount = Int(marbles_backtrace(&walked, 12))
      let unwoundCount = Int(marbles_unwound_backtrace(&unwound, 12))
      return (
        walked.prefix(walkedCount).map { UInt(bitPattern: $0) },
        unwound.prefix(unwoundCount).map { UInt(bitPattern: $0) }
      )
    }

    /// Whether the callers of `bothBacktraces` are the same in both, as far as both reach: the
    /// walk's first entry is the call in `bothBacktraces`; the unwinder's first entries are inside
    /// `marbles_unwound_backtrace` (which calls `backtrace`, through the thread sanitizer's
    /// interceptor under `--sanitize=thread`), then the call.
    static func sameCallers(_ walked: [UInt], _ unwound: [UInt]) -> Bool {
      guard walked.count > 4, let start = unwound.firstIndex(of: walked[1]) else { return false }
      let reach = min(walked.count - 1, unwound.count - start)
      return reach >= 4 && Array(walked[1..<(1 + reach)]) == Array(unwound[start..<(start + reach)])
    }

    @inline(never) static func nested(_ depth: Int) -> (walked: [UInt], unwound: [UInt]) {
      depth == 0 ? bothBacktraces() : nested(depth - 1)
    }

    @Test func theChainOfFramePointersGivesTheUnwindersCallers() {
      let (walked, unwound) = Self.nested(4)
      #expect(walked.count >= 6, "\(walked)")
      #expect(Self.sameCallers(walked, unwound), "\(walked) \(unwound)")
    }

    @Test func aTaskCreatedInAnAsyncFunctionIsTracedToItByTheChain() async {
      let frames = Mutex<(walked: [UInt], unwound: [UInt])>(([], []))
      let created = Task { frames.withLock { $0 = Self.nested(2) } }
      await created.value
      let (walked, unwound) = frames.withLock { $0 }
      #expect(walked.count >= 6, "\(walked)")
      #expect(Self.sameCallers(walked, unwound), "\(walked) \(unwound)")
    }
  }

#endif
