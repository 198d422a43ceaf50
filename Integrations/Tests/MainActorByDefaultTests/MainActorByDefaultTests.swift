import MainActorByDefault
import MarbleTesting
import Testing

/// Standard sleeps in virtual time in a module built with `.defaultIsolation(MainActor.self)` and
/// `NonisolatedNonsendingByDefault`, from tests built the same way (so they are on the main actor
/// too).
@Suite struct MainActorByDefaultTests {
  @Test func aCountdownTicksOncePerVirtualSecond() {
    let scheduler = TestScheduler(tick: .milliseconds(100))
    let countdown = Countdown(from: 3)
    countdown.start()
    scheduler.advance(by: 9)
    #expect(countdown.remaining == 3)
    scheduler.advance(by: 1)
    #expect(countdown.remaining == 2)
    scheduler.run()
    #expect(countdown.remaining == 0)
    #expect(countdown.isFinished)
    #expect(scheduler.now == 30)
  }

  @Test func stoppingTheCountdownLeavesNothingScheduled() {
    let scheduler = TestScheduler()
    let countdown = Countdown(from: 3)
    countdown.start()
    scheduler.advance(by: .milliseconds(1_500))
    countdown.stop()
    scheduler.run()
    #expect(countdown.remaining == 2)
    #expect(scheduler.now == 1_500, "the cancelled sleep moved nothing")
  }

  /// The deadline is read on the main actor and the sleep starts after a hop, behind the other
  /// tasks' steps: still exact.
  @Test func aDeadlineReadBeforeAHopIsExactBehindManyOtherSteps() {
    let scheduler = TestScheduler()
    var answers: [Int] = []
    for index in 0..<300 {
      Task {
        _ = try await answer(after: .milliseconds(250 + index % 3))
        answers.append(scheduler.now)
      }
    }
    scheduler.run()
    #expect(answers.count == 300)
    #expect(answers.sorted() == (0..<300).map { 250 + $0 % 3 }.sorted())
  }

  @Test func aNonsendingFunctionsSleep() async throws {
    let scheduler = TestScheduler()
    let task = Task {
      try await nap(.milliseconds(40))
      return scheduler.now
    }
    scheduler.advance(by: 40)
    #expect(try await task.value == 40)
  }
}
