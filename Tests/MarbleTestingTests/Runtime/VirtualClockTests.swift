import CMarbleRuntime
import Dispatch
import Foundation
import Synchronization
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

    /// This thread's wall-clock reading through the wrapper (virtual where the scope says so), in
    /// nanoseconds.
    static func wallReading() -> Int64 {
      var time = timespec()
      clock_gettime(CLOCK_REALTIME, &time)
      return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// Readers enter scopes of clocks that other threads make, set and let go as fast as they
    /// can (a pooled clock is reused at once): a reading is either real (the clock was let go) or
    /// that generation's own virtual time — never another generation's elapsed time on this
    /// one's epoch. Under `make test-tsan` the sanitizer watches every access.
    @Test func readingsWhileClocksAreMadeAndLetGoOnOtherThreadsAreTheirOwnOrReal() async {
      let published = Mutex<Handle?>(nil)
      let stop = Atomic(false)
      let wrong = Mutex<[String]>([])
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
            marbles_clock_set_elapsed(clock, generation, seconds * 1_000_000_000)
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
            let reading = Self.wallReading()
            marbles_clock_restore(scope)
            readings.add(1, ordering: .relaxed)
            let ahead = Double(reading - real) / 1e9
            let expected = Double(handle.elapsed)
            if abs(ahead) > 5, abs(ahead - expected) > 5 {
              wrong.withLock {
                if $0.count < 5 {
                  $0.append("\(ahead) s ahead of real time; its clock's virtual time is \(expected) s")
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
    @Test func aForkedChildReadsRealTime() throws {
      typealias Fork = @convention(c) () -> pid_t
      let fork = try #require(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "fork"))
      var generation: UInt64 = 0
      let clock = marbles_clock_create(&generation)
      marbles_clock_set_elapsed(clock, generation, 3_600 * 1_000_000_000)
      let scope = marbles_clock_enter(clock, generation, MARBLES_SCOPE_THREAD, nil)
      let readsVirtualTime = marbles_reads_virtual_time()
      let child = unsafeBitCast(fork, to: Fork.self)()
      if child == 0 { _exit(marbles_reads_virtual_time() ? 1 : 0) }
      marbles_clock_restore(scope)
      marbles_clock_release(clock, generation)
      #expect(readsVirtualTime)
      try #require(child > 0)
      var status: Int32 = 0
      waitpid(child, &status, 0)
      #expect(status & 0x7f == 0, "the child exited")
      #expect((status >> 8) & 0xff == 0, "the child read virtual time")
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
