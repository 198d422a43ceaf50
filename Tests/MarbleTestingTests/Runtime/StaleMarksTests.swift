import Foundation
import MarbleTesting
import Testing

/// A scheduler made inside a task's job, outside any test, opens a world and marks the thread
/// that job runs on as the world's until the job ends; the mark stays on that thread after the
/// job ends, and after the world closed on another thread. On 2026-11-27's `main` the mark held
/// the world's driver and the task unretained, and one full parallel run crashed reading a freed
/// driver there (`ThreadSlot.runningDriver`); the marks now retain both. A stress of the pattern:
/// it did not reproduce that crash on the old code (nor did AddressSanitizer, under which the
/// clock's wrappers are not reached), so it guards the pattern rather than proving the fix.
@Suite struct StaleMarksTests {
  @Test func tasksRunningWhereWorldsOpenedAndClosedFindNothingOfThem() async {
    // A world stays open meanwhile, as other tests' do in a parallel run: jobs are looked at.
    let elsewhere = Task.detached { withVirtualTime { _ in Thread.sleep(forTimeInterval: 1) } }
    defer { elsewhere.cancel() }
    for _ in 0..<2_000 {
      // Outside any test (a detached task has no test's task locals): the world lives as long
      // as its scheduler, which the job hands out, and which is let go here, on another thread.
      let scheduler = await Task.detached { TestScheduler() }.value
      _ = scheduler
      // Later jobs, on whichever thread: each starts a task and reads the time.
      let started = await Task.detached {
        await Task { ContinuousClock.now }.value
      }.value
      #expect(started <= ContinuousClock.now)
    }
  }
}
