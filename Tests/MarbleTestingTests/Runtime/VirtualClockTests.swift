import CMarbleRuntime
import Dispatch
import Foundation
@_spi(Internals) import Signals
import Synchronization
import TestSupport
import Testing

// The C clocks under load and across a fork: what `virtual_clock.c` promises its readers whatever
// other threads do with the pool of clocks.
#if MARBLES_TESTED_RUNTIME && os(Linux)

  @Suite struct VirtualClockTests {
    /// A clock and the generation that names it, handed between threads.
    struct Handle: @unchecked Sendable {
      // NB: @unchecked: the C functions check the generation before they touch the clock.
      let clock: OpaquePointer
      let generation: UInt64
      /// The virtual time its maker set, in seconds: distinct per generation.
      let elapsed: Int64
    }

    /// Readers enter scopes of clocks that other threads make, set and let go as fast as they
    /// can (a pooled clock is reused at once): a reading is either real (the clock was let go) or
    /// that generation's own virtual time — never another generation's elapsed time on this
    /// one's epoch. Under `make test-tsan` the sanitizer watches every access.
    @Test func readingsWhileClocksAreMadeAndLetGoOnOtherThreadsAreTheirOwnOrReal() async {
      // NB: Signals' Locked, whose lock the thread sanitizer sees (a contended Mutex hands over in
      // the kernel, where it does not).
      let published = Locked<Handle?>(nil)
      let stop = Atomic(false)
      let wrong = Locked<[String]>([])
      let readings = Atomic(0)
      let makers = DispatchGroup()
      let readers = DispatchGroup()
      for maker in 0..<2 {
        Thread {
          var previous: Handle?
          for round in 0..<20_000 {
            var generation: UInt64 = 0
            let clock = marbles_clock_create(&generation)
            let seconds = Int64((maker * 20_000 + round) % 997 + 1) * 1_000
            marbles_clock_move_to(clock, generation, seconds * 1_000_000_000)
            let handle = Handle(clock: clock, generation: generation, elapsed: seconds)
            published.withLock { $0 = handle }
            if let previous { marbles_clock_release(previous.clock, previous.generation) }
            previous = handle
          }
          if let previous { marbles_clock_release(previous.clock, previous.generation) }
          makers.leave()
        }.startAfterEntering(makers)
      }
      for _ in 0..<2 {
        Thread {
          while !stop.load(ordering: .relaxed) {
            guard let handle = published.withLock({ $0 }) else { continue }
            let scope = marbles_clock_enter(
              handle.clock, handle.generation, MARBLES_SCOPE_THREAD, nil)
            let real = marbles_real_now(MARBLES_CLOCK_WALL)
            let reading = wallClockReading()
            marbles_clock_restore(scope)
            readings.add(1, ordering: .relaxed)
            let ahead = Double(reading - real) / 1e9
            let expected = Double(handle.elapsed)
            if abs(ahead) > 5, abs(ahead - expected) > 5 {
              wrong.withLock {
                if $0.count < 5 {
                  $0.append(
                    "\(ahead) s ahead of real time; its clock's virtual time is \(expected) s")
                }
              }
            }
          }
          readers.leave()
        }.startAfterEntering(readers)
      }
      // The makers end by themselves, the readers when they have; waited for on a thread of its
      // own, not the test's.
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
          makers.wait()
          stop.store(true, ordering: .relaxed)
          readers.wait()
          done.resume()
        }.start()
      }
      #expect(wrong.withLock { $0 } == [])
      #expect(readings.load(ordering: .relaxed) >= 1_000)
    }

    /// A forked child's only thread reads real time, whatever scope the forking thread had: the
    /// worlds it read belong to threads the child does not have.
    /// The real readings come from the kernel's vDSO function, found without the dynamic loader
    /// (on 2026-11-28's `main` the first reading looked `clock_gettime` up with dlsym, which a
    /// signal handler must not call); under the thread sanitizer, from its interceptor.
    @Test func theRealClockIsTheVDSOsFoundWithoutTheLoader() {
      #expect(
        marbles_real_clock_source_now()
          == (isUnderThreadSanitizer ? MARBLES_REAL_CLOCK_SANITIZER : MARBLES_REAL_CLOCK_VDSO))
    }

    /// `gettimeofday` and `time`, outside any world, read the real wall clock — now without
    /// looking the C library's up — and `gettimeofday` clears an old-style time zone as the C
    /// library does.
    @Test func gettimeofdayAndTimeOutsideAWorldAreTheRealWallClock() {
      let read = wallClockSecondsThroughEachReading()
      #expect(read.before <= read.gettimeofday && read.gettimeofday <= read.after)
      #expect(read.before <= read.time && read.time <= read.after)
      #expect(read.zoneCleared)
    }

    @Test func aForkedChildReadsRealTime() throws {
      var generation: UInt64 = 0
      let clock = marbles_clock_create(&generation)
      marbles_clock_move_to(clock, generation, 3_600 * 1_000_000_000)
      let scope = marbles_clock_enter(clock, generation, MARBLES_SCOPE_THREAD, nil)
      let readsVirtualTime = marbles_reads_virtual_time()
      let childStatus = forkedChildStatus { marbles_reads_virtual_time() ? 1 : 0 }
      marbles_clock_restore(scope)
      marbles_clock_release(clock, generation)
      #expect(readsVirtualTime)
      #expect(childStatus == 0, "the child read virtual time (1), or did not exit (nil)")
    }
  }

  extension Thread {
    /// Enters `group`, then starts the thread (which leaves it).
    fileprivate func startAfterEntering(_ group: DispatchGroup) {
      group.enter()
      start()
    }
  }

#endif
