@preconcurrency import Dispatch
import Foundation
import MarbleTesting
import Marbles
import Synchronization
import TestSupport
import Testing

// Readings of time are virtual only where the runtime code is compiled (Package.swift).
#if MARBLES_TESTED_RUNTIME

  /// "One clock": in a test with a scheduler, every reading of time is the scheduler's — the
  /// standard clocks' `now` and `measure`, `Date()`, `DispatchTime` — in driven work and in the
  /// test's own task; `asyncAfter` runs at its virtual deadline; the test body's own sleep advances;
  /// deadlines are taken literally. No clock is injected anywhere.
  @Suite struct OneClockTests {
    // MARK: Readings in driven work

    @Test func continuousClockElapsedAroundASleepIsTheSleep() {
      let scheduler = TestScheduler()
      let elapsed = Mutex<Duration?>(nil)
      scheduler.task {
        let start = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(300))
        elapsed.withLock { $0 = start.duration(to: .now) }
      }
      scheduler.run()
      #expect(elapsed.withLock { $0 } == .milliseconds(300))
    }

    @Test func suspendingClockElapsedAroundASleepIsTheSleep() {
      let scheduler = TestScheduler()
      let elapsed = Mutex<Duration?>(nil)
      scheduler.task {
        let start = SuspendingClock.now
        try await SuspendingClock().sleep(for: .milliseconds(300))
        elapsed.withLock { $0 = start.duration(to: SuspendingClock.now) }
      }
      scheduler.run()
      #expect(elapsed.withLock { $0 } == .milliseconds(300))
    }

    @Test func measureOfATwoSecondSleepIsTwoSeconds() {
      let scheduler = TestScheduler()
      let measured = Mutex<[Duration]>([])
      scheduler.task {
        let continuous = try await ContinuousClock().measure {
          try await Task.sleep(for: .seconds(2))
        }
        let suspending = try await SuspendingClock().measure {
          try await Task.sleep(for: .seconds(2))
        }
        measured.withLock { $0 = [continuous, suspending] }
      }
      scheduler.run()
      #expect(measured.withLock { $0 } == [.seconds(2), .seconds(2)])
      #expect(scheduler.now == 4_000)
    }

    @Test func aDateTimeToLiveExpiresAtItsTick() {
      // snippet: one-clock-expiry
      let scheduler = TestScheduler()
      let cache = TimestampedCache(timeToLive: 60)  // stamps each entry with Date()
      cache.store("token", for: "user")  // in the test body: the scheduler's time too
      scheduler.advance(by: .seconds(59))
      #expect(cache.value(for: "user") == "token")
      scheduler.advance(by: .seconds(1))
      #expect(cache.value(for: "user") == nil, "expired at exactly 60 s")
      // snippet-end
    }

    @Test func aDateTimeToLiveExpiresAtItsTickInADrivenTask() {
      let scheduler = TestScheduler()
      let cache = TimestampedCache(timeToLive: 60)
      let seen = Mutex<[String?]>([])
      scheduler.task {
        cache.store("token", for: "user")
        try await Task.sleep(for: .seconds(59))
        seen.withLock { $0.append(cache.value(for: "user")) }
        try await Task.sleep(for: .seconds(1))
        seen.withLock { $0.append(cache.value(for: "user")) }
      }
      scheduler.run()
      #expect(seen.withLock { $0 } == ["token", nil])
    }

    @Test func aDateIsStillTodaysDate() {
      let before = Date()
      let scheduler = TestScheduler()
      let start = Date()
      let realAfter = RealTime.reading { Date() }
      let read = Mutex<Date?>(nil)
      scheduler.task {
        try await Task.sleep(for: .seconds(3600))
        read.withLock { $0 = Date() }
      }
      scheduler.run()
      let date = try! #require(read.withLock { $0 })
      // The world's date starts at the real date it opened at, and moves an hour exactly.
      #expect(before <= start && start <= realAfter)
      #expect(date.timeIntervalSince(start) == 3600)
    }

    @Test func dispatchTimeDifferencesAreVirtual() {
      let scheduler = TestScheduler()
      let elapsed = Mutex<[UInt64]>([])
      scheduler.task {
        let start = DispatchTime.now()
        let wallStart = DispatchWallTime.now()
        try await Task.sleep(for: .milliseconds(500))
        let end = DispatchTime.now()
        elapsed.withLock {
          $0 = [end.uptimeNanoseconds - start.uptimeNanoseconds]
        }
        // A wall deadline 500 ms after the first reading is now, to the nanosecond.
        #expect(wallStart + .milliseconds(500) <= DispatchWallTime.now())
      }
      scheduler.run()
      #expect(elapsed.withLock { $0 } == [500_000_000])
    }

    @Test func readingsInTheSchedulersActionsAreVirtual() {
      let scheduler = TestScheduler()
      let start = ContinuousClock.now
      let elapsed = Mutex<Duration?>(nil)
      scheduler.schedule(after: .milliseconds(250)) {
        elapsed.withLock { $0 = start.duration(to: .now) }
      }
      scheduler.run()
      #expect(elapsed.withLock { $0 } == .milliseconds(250))
    }

    @Test func aScheduledClockAndTheStandardClocksAgreeAtEveryTick() {
      let scheduler = TestScheduler()
      let start = ContinuousClock.now
      let injectedStart = scheduler.clock.now
      for step in [1, 7, 300, 12_000] {
        scheduler.advance(by: step)
        #expect(start.duration(to: .now) == injectedStart.duration(to: scheduler.clock.now))
      }
    }

    // MARK: Deadlines taken literally

    @Test func aPollLoopWithADeadlineEndsAtIt() async throws {
      // snippet: one-clock-poll
      let scheduler = TestScheduler()
      // pollUntilReady reads `let deadline = ContinuousClock.now + timeout` and polls every 100 ms
      let waiting = scheduler.task {
        try await pollUntilReady(every: .milliseconds(100), timeout: .seconds(5)) {
          scheduler.now >= 2_350  // the server comes up at 2.35 s
        }
      }
      let givingUp = scheduler.task {
        try await pollUntilReady(every: .milliseconds(100), timeout: .seconds(5)) { false }
      }
      scheduler.run()
      #expect(try await waiting.value == (ready: true, polls: 25))
      #expect(try await givingUp.value == (ready: false, polls: 50))
      #expect(scheduler.now == 5_000, "the loop that never succeeds gives up at its deadline")
      // snippet-end
    }

    @Test func twoThousandPeriodicDeadlinesEndAtExactlySixHundredSeconds() {
      let scheduler = TestScheduler()
      let woke = Mutex<[Int]>([])
      scheduler.task {
        let clock = ContinuousClock()
        var next = clock.now
        for _ in 0..<2_000 {
          next = next.advanced(by: .milliseconds(300))
          try await clock.sleep(until: next, tolerance: nil)
          let now = scheduler.now
          woke.withLock { $0.append(now) }
        }
      }
      scheduler.run()
      #expect(scheduler.now == 600_000)
      #expect(woke.withLock { $0 } == (1...2_000).map { $0 * 300 })
    }

    @Test func aDeadlineReadBeforeAnAwaitIsKeptExactly() {
      let scheduler = TestScheduler()
      let warmer = Warmer()
      let woke = Mutex<Int?>(nil)
      scheduler.task {
        let deadline = ContinuousClock.now + .milliseconds(100)
        await warmer.warm()  // another actor, which sleeps 30 ms
        try await Task.sleep(until: deadline, clock: .continuous)
        let now = scheduler.now
        woke.withLock { $0 = now }
      }
      scheduler.run()
      #expect(woke.withLock { $0 } == 100)
    }

    @Test func aDeadlineOnOneClockSleptOnAnotherWakesAtItsTick() {
      let scheduler = TestScheduler()
      let woke = Mutex<[Int]>([])
      scheduler.task {
        let suspendingDeadline = SuspendingClock.now + .milliseconds(40)
        try await Task.sleep(for: .milliseconds(15))
        // The same instant, reached on the continuous clock.
        let remaining = SuspendingClock.now.duration(to: suspendingDeadline)
        try await ContinuousClock().sleep(until: .now + remaining)
        let now = scheduler.now
        woke.withLock { $0.append(now) }
      }
      scheduler.run()
      #expect(woke.withLock { $0 } == [40])
    }

    @Test func aRateLimiterOnSuspendingClockOpensItsNextWindowOnTime() {
      let scheduler = TestScheduler()
      let limiter = RateLimiter(limit: 2, per: .seconds(1))
      let allowed = Mutex<[Bool]>([])
      scheduler.task {
        for _ in 0..<3 {
          let ok = await limiter.allow()
          allowed.withLock { $0.append(ok) }
        }
        try await Task.sleep(for: .milliseconds(999))
        let stillClosed = await limiter.allow()
        try await Task.sleep(for: .milliseconds(1))
        let open = await limiter.allow()
        allowed.withLock { $0 += [stillClosed, open] }
      }
      scheduler.run()
      #expect(allowed.withLock { $0 } == [true, true, false, false, true])
    }

    // MARK: Dispatch

    @Test func asyncAfterOnAGlobalQueueRunsAtItsVirtualDeadline() {
      let scheduler = TestScheduler()
      let ran = Mutex<[Int]>([])
      scheduler.task {
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) {
          ran.withLock { $0.append(scheduler.now) }
        }
        DispatchQueue.global().asyncAfter(wallDeadline: .now() + 0.75) {
          ran.withLock { $0.append(scheduler.now) }
        }
      }
      scheduler.advance(by: 499)
      #expect(ran.withLock { $0 } == [])
      scheduler.advance(by: 1)
      #expect(ran.withLock { $0 } == [500], "finished when the advance returns")
      scheduler.run()
      #expect(ran.withLock { $0 } == [500, 750])
    }

    @Test func asyncAfterOnASerialQueueKeepsItsOrder() {
      let scheduler = TestScheduler()
      let queue = DispatchQueue(label: "serial")
      let ran = Mutex<[String]>([])
      scheduler.task {
        for name in ["a", "b", "c"] {
          queue.asyncAfter(deadline: .now() + 0.01) { ran.withLock { $0.append(name) } }
        }
      }
      scheduler.run()
      #expect(ran.withLock { $0 } == ["a", "b", "c"])
      #expect(scheduler.now == 10)
    }

    @MainActor @Test func asyncAfterOnTheMainQueueFromAMainActorModel() {
      let scheduler = TestScheduler()
      let banner = BannerModel()
      banner.show("Saved")
      scheduler.advance(by: .milliseconds(2_999))
      #expect(banner.message == "Saved")
      scheduler.advance(by: .milliseconds(1))
      #expect(banner.message == nil)
    }

    @Test func aDispatchTimerSourceIsNamedAsRunningInRealTime() {
      let scheduler = TestScheduler()
      let timer = DispatchSource.makeTimerSource(queue: .global())
      scheduler.task {
        timer.setEventHandler {}
        timer.schedule(deadline: .now() + 3600)
        timer.activate()
      }
      let line = #line + 2
      withKnownIssue {
        scheduler.flush()
      } matching: { issue in
        issue.severity == .warning && issue.sourceLocation?.line == line
          && issue.comments.first?.rawValue
            == "Driven work did this outside virtual time: a Dispatch timer source on a global "
            + "queue was made at tick 0; it runs in real time — give it a queue of its own or the "
            + "main queue, or use DispatchQueue.asyncAfter, a standard sleep or the scheduler's "
            + "clock."
      }
      timer.cancel()
    }

    // MARK: Blocking waits on the clock

    /// A blocking sleep is a timed wait of Foundation: it waits its own time, in real time, also
    /// in driven work, though it reads the clock to know when it is done.
    @Test func aBlockingSleepInDrivenWorkWaitsItsOwnRealTime() {
      let scheduler = TestScheduler(stallTimeout: .seconds(30))
      let slept = Mutex<Duration?>(nil)
      scheduler.schedule(after: .milliseconds(5)) {
        let start = RealTime.reading { ContinuousClock.now }
        Thread.sleep(forTimeInterval: 0.05)
        slept.withLock { $0 = RealTime.reading { ContinuousClock.now } - start }
      }
      scheduler.flush()
      let took = slept.withLock { $0 }
      // At least its own time: a sleep measured on the virtual clock ends at once.
      #expect(took.map { $0 >= .milliseconds(50) } == true, "\(String(describing: took))")
      #expect(scheduler.now == 5)
    }

    @Test func aBusyWaitOnTheClockInADrivenTaskEnds() {
      let scheduler = TestScheduler(stallTimeout: .milliseconds(200))
      let spun = Mutex(false)
      scheduler.task {
        let end = ContinuousClock.now + .milliseconds(20)
        while ContinuousClock.now < end {}
        spun.withLock { $0 = true }
      }
      withKnownIssue {
        scheduler.flush()
      } matching: { issue in
        issue.comments.first?.rawValue.contains("a blocking wait read the clock at tick 0") == true
      }
      #expect(spun.withLock { $0 })
    }

    // MARK: The test's own task

    @Test func theTestBodysReadingsAreTheSchedulers() {
      let scheduler = TestScheduler()
      let start = ContinuousClock.now
      let dateStart = Date()
      scheduler.advance(by: 3_000)
      #expect(start.duration(to: .now) == .seconds(3))
      #expect(Date().timeIntervalSince(dateStart) == 3)
    }

    @Test func aSleepInTheTestBodyIsAnAdvance() async throws {
      let scheduler = TestScheduler()
      let woke = Mutex<Int?>(nil)
      Task {
        try await Task.sleep(for: .milliseconds(200))
        woke.withLock { $0 = scheduler.now }
      }
      let start = ContinuousClock.now
      try await Task.sleep(for: .milliseconds(300))
      #expect(scheduler.now == 300)
      #expect(woke.withLock { $0 } == 200)
      #expect(start.duration(to: .now) == .milliseconds(300))
    }

    @MainActor @Test func aSleepInAMainActorTestBodyIsAnAdvance() async throws {
      let scheduler = TestScheduler()
      let banner = BannerModel()
      banner.show("Saved")
      try await Task.sleep(for: .seconds(3))
      #expect(banner.message == nil)
      #expect(scheduler.now == 3_000)
    }

    @Test func codeCalledFromTheTestBodyReadsTheSameClockAsTheTasksItStarts() {
      let scheduler = TestScheduler()
      let cache = TimestampedCache(timeToLive: 3)
      cache.store("token", for: "user")  // stamped in the test body
      let seen = Mutex<[String?]>([])
      Task {
        try await Task.sleep(for: .seconds(3))
        seen.withLock { $0.append(cache.value(for: "user")) }
      }
      scheduler.advance(by: .seconds(3))
      #expect(seen.withLock { $0 } == [nil], "expired at exactly 3 s")
    }

    // MARK: What stays real

    @Test func workMadeBeforeTheSchedulerKeepsRealTime() async throws {
      let before = Task.detached {
        let start = ContinuousClock.now
        blockForRealTime(microseconds: 20_000)
        return start.duration(to: .now)
      }
      let scheduler = TestScheduler()
      scheduler.advance(by: Self.virtualHours)
      let elapsed = await before.value
      // Real time: its own 20 ms at least, and not the world's hours.
      #expect(elapsed >= .milliseconds(20) && elapsed < Self.virtualHours)
    }

    /// How far the tests of what stays real move virtual time: more than a test run lasts, so a
    /// reading on the virtual clock cannot pass for a real one however busy the machine.
    static let virtualHours = Duration.seconds(4 * 3600)

    @Test func aPlainThreadKeepsRealTime() {
      let scheduler = TestScheduler()
      scheduler.advance(by: Self.virtualHours)
      let elapsed = Mutex<Duration?>(nil)
      let thread = Thread {
        let start = ContinuousClock.now
        blockForRealTime(microseconds: 20_000)
        elapsed.withLock { $0 = start.duration(to: .now) }
      }
      let done = DispatchSemaphore(value: 0)
      let watcher = Thread {
        while elapsed.withLock({ $0 }) == nil { blockForRealTime(microseconds: 1_000) }
        done.signal()
      }
      thread.start()
      watcher.start()
      done.wait()
      let measured = elapsed.withLock { $0 } ?? .zero
      #expect(measured >= .milliseconds(20) && measured < Self.virtualHours)
    }

    @Test func readingsAfterTheWorldClosesAreRealAgain() {
      let virtual = withVirtualTime { scheduler in
        scheduler.advance(by: .seconds(3600))
        return Date()
      }
      let real = Date()
      #expect(virtual.timeIntervalSince(real) > 3500, "the closed world's hour is gone")
    }

    /// One timeline: the inner scheduler starts where the world is, and when it goes, the world
    /// keeps the time it reached.
    @Test func readingsStayVirtualAfterAScheduledMadeInsideTheWorldIsReleased() {
      withVirtualTime { scheduler in
        scheduler.advance(by: .seconds(3600))
        let start = Date()
        do {
          let inner = TestScheduler()
          inner.advance(by: .seconds(10))
          #expect(
            Date().timeIntervalSince(start) == 10, "the inner scheduler's 10 s, on from there")
        }
        #expect(Date().timeIntervalSince(start) == 10, "the world's clock, where it went")
        #expect(scheduler.now == 3_610_000)
      }
    }
  }

  /// An actor whose work takes 30 ms of sleep.
  actor Warmer {
    func warm() async {
      try? await Task.sleep(for: .milliseconds(30))
    }
  }

#endif
