import MarbleTesting
import Synchronization
import Testing

/// The drain under an explored schedule, where a wake-up due now may be chosen ahead of a ready
/// job: the step limit still stops it, and nothing is lost.
@Suite struct ExploredDrainTests {
  /// Always the last candidate: a wake-up, whenever one is due beside ready jobs.
  struct LastCandidate: ScheduleStrategy {
    mutating func choose(among candidates: [ScheduleCandidate]) -> Int { candidates.count - 1 }
  }

  /// A run's step log keeps the first 10,000 jobs and counts the rest: an explored run may go on
  /// to its step limit, and its log grew with every job (on 2026-11-28's `main`).
  @Test func theStepLogIsBounded() {
    let schedule = ScheduleRun(FIFOStrategy())
    ScheduleRun.$current.withValue(schedule) {
      let scheduler = TestScheduler()
      for _ in 0..<15_000 { scheduler.task {} }
      scheduler.run()
    }
    #expect(schedule.steps.count == ScheduleRun.stepLogLimit)
    #expect(schedule.stepsLeftOut == 15_000 - ScheduleRun.stepLogLimit)
  }

  /// At every step limit from 1 to 60, a run that keeps choosing wake-ups stops at the limit (it
  /// once chose again and again without running anything: the run never returned), and runs
  /// called after it finish the work, each wake-up once.
  @Test func aWakeUpChosenAtTheStepLimitStopsTheRunAndLosesNothing() {
    for limit in 1...60 {
      let schedule = ScheduleRun(LastCandidate())
      ScheduleRun.$current.withValue(schedule) {
        let scheduler = TestScheduler(stepLimit: limit)
        let wakes = Mutex(0)
        for _ in 0..<2 {
          scheduler.task {
            for _ in 0..<3 {
              try await Task.sleep(for: .milliseconds(10))
              wakes.withLock { $0 += 1 }
            }
          }
        }
        var runs = 0
        while runs < 100 {
          runs += 1
          let result = scheduler.run()
          #expect(result.actionsRun <= limit, "step limit \(limit)")
          if result.isComplete { break }
          #expect(result.failure?.kind == .stepLimitExceeded, "step limit \(limit)")
        }
        #expect(wakes.withLock { $0 } == 6, "step limit \(limit)")
        #expect(scheduler.now == 30, "step limit \(limit)")
        #expect(schedule.choices.count < 1_000, "step limit \(limit)")
      }
    }
  }
}
