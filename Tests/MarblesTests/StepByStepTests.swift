import MarbleTesting
import Marbles
import Observation
import Signals
import Synchronization
import TestSupport
import Testing

/// Turbine-style steps on any recorder: each step drives virtual time to the next event and stops
/// at its tick; a step that cannot be satisfied fails at its line and returns; a recorder read
/// step by step must have every event taken.
@Suite struct StepByStepTests {
  // snippet: step-by-step
  @Test func eachStepDrivesVirtualTimeToTheNextEvent() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("--a---b|"))
    #expect(results.nextValue() == "a")
    #expect(scheduler.now == 2)
    #expect(results.nextValue() == "b")
    #expect(scheduler.now == 6)
    results.expectCompletion()
    #expect(scheduler.now == 7)
  }
  // snippet-end

  @Test func anEventAlreadyThereIsTakenWithoutDriving() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("(ab)-c|"))
    #expect(results.nextEvent() == .next("a"))
    #expect(scheduler.now == 0)
    #expect(results.nextValue() == "b")
    #expect(scheduler.now == 0, "b came in the same tick: nothing was driven")
    results.expectNoEvents()
    results.skip(1)
    #expect(scheduler.now == 5)
    results.expectCompletion()
  }

  @Test func aStepStopsAtTheEndOfTheEventsTickWithEveryJobOfItRun() throws {
    let scheduler = TestScheduler()
    let input = try scheduler.hot("-a--b--c|")
    let log = Log()
    // Each value is also logged by a task at the same tick, after the recorder saw it.
    let results = scheduler.record(input.map { value in value.uppercased() })
    _ = input.subscribe(next: { value in
      Task { log.append("\(value)@\(scheduler.now)") }
    })
    #expect(results.nextValue() == "A")
    #expect(log.all == ["a@1"], "the tick's jobs ran before the step returned")
    #expect(results.nextValue() == "B")
    #expect(scheduler.now == 4)
    results.cancelAndIgnoreRemainingEvents()
  }

  @Test func aFailureIsTakenWithExpectFailure() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("-a-#", error: TestError("offline")))
    results.skip(1)
    #expect(results.expectFailure() == TestError("offline"))
    #expect(scheduler.now == 3)
  }

  @Test func anAsyncSequenceStepByStep() {
    let scheduler = TestScheduler()
    let ticks = AsyncStream<Int> { continuation in
      Task {
        for tick in 1...3 {
          try? await Task.sleep(for: .milliseconds(100))
          continuation.yield(tick)
        }
        continuation.finish()
      }
    }
    let results = scheduler.record(ticks)
    #expect(results.nextValue() == 1)
    #expect(scheduler.now == 100)
    #expect(results.nextValue() == 2)
    #expect(results.nextValue() == 3)
    #expect(scheduler.now == 300)
    results.expectCompletion()
  }

  @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
  @MainActor @Test func observationsStepByStepOnTheMainActor() {
    let scheduler = TestScheduler()
    let model = BareSleepSearchViewModel()
    let results = scheduler.record(Observations { model.results })
    #expect(results.nextValue() == [])
    model.query = "sw"
    #expect(results.nextValue() == ["swift", "swiftui", "sweet"])
    #expect(scheduler.now == 400, "300 ms of quiet, then the API's 100 ms")
    results.cancelAndIgnoreRemainingEvents()
  }

  @Test func stepsFromAnAsyncTest() async throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("-a|"))
    await Task.yield()
    #expect(results.nextValue() == "a")
    results.expectCompletion()
  }

  // MARK: Steps that fail

  @Test func anEventOfAnotherKindFailsAtTheStepsLineNamingWhatCameAndWhen() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("--|"))
    let line = #line + 2
    withKnownIssue {
      #expect(results.nextValue() == nil)
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          "nextValue() expected a value, got completion at tick 2"
        ]
    }
    #expect(scheduler.now == 2)
  }

  @Test func expectCompletionAndExpectFailureSayWhatCameInstead() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("-a-b|", error: TestError()))
    withKnownIssue {
      results.expectCompletion()
      #expect(results.expectFailure() == nil)
    } matching: { issue in
      [
        #"expectCompletion() expected the completion, got next("a") at tick 1"#,
        #"expectFailure() expected a failure, got next("b") at tick 3"#,
      ].contains(issue.comments.first?.rawValue ?? "")
    }
    results.expectCompletion()
  }

  @Test func whenTheSchedulerRunsOutOfWorkTheStepFailsInsteadOfWaiting() throws {
    let scheduler = TestScheduler()
    let input = try scheduler.hot("-a---")
    let results = scheduler.record(input)
    results.skip(1)
    let line = #line + 2
    withKnownIssue {
      #expect(results.nextEvent() == nil)
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue
          == "nextEvent() expected an event, but none will come: the scheduler ran out of work at "
          + "tick 1, and the recorder has no event left to take"
    }
  }

  @Test func anEndlessTimerThatSendsNothingEndsTheStepAtTheStepLimit() throws {
    let scheduler = TestScheduler(stepLimit: 1_000)
    let timer = scheduler.schedule(after: .milliseconds(1), interval: .milliseconds(1)) {}
    let results = scheduler.record(Signal<Int, Never>.never)
    withKnownIssue {
      #expect(results.nextValue() == nil)
    } matching: { issue in
      let message = issue.comments.first?.rawValue ?? ""
      return message.hasPrefix("TestScheduler stopped after 1000 steps")
        || message.hasPrefix(
          "nextValue() expected a value, but none will come: the scheduler stopped at its step "
            + "limit at tick")
    }
    timer.dispose()
  }

  @Test func skipStopsAtTheFirstStepThatFails() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("ab|"))
    withKnownIssue {
      results.skip(3)
    } matching: { issue in
      issue.comments.first?.rawValue
        == "skip(3), taking value 3 of 3, expected a value, got completion at tick 2"
    }
  }

  @Test func expectNoEventsFailsForAnEventNotTakenAndNeverDrives() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("-a-b|"))
    results.expectNoEvents()  // nothing has run yet: no event
    scheduler.advance(by: 1)
    withKnownIssue {
      results.expectNoEvents()
    } matching: { issue in
      issue.comments.first?.rawValue == #"expectNoEvents() found next("a") at tick 1 not taken yet"#
    }
    #expect(scheduler.now == 1)
    results.cancelAndIgnoreRemainingEvents()
  }

  // MARK: Exhaustive

  @Test func aRecorderReleasedWithEventsNeverTakenFailsTheTest() throws {
    let line = #line + 8
    try withKnownIssue {
      let scheduler = TestScheduler()
      let results = scheduler.record(try scheduler.cold("-a-b-c|"))
      #expect(results.nextValue() == "a")
      _ = scheduler.run()
      // Released here, at the end of the scope, with b, c and the completion never taken.
      _ = results.values
      _ = results.nextValue()
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.first?.rawValue.hasPrefix(
          "a recorder read step by step (last at MarblesTests/StepByStepTests.swift:\(line)) was "
            + #"released with 2 events never taken: next("c") at tick 5, completed at tick 6."#)
          == true
    }
  }

  @Test func cancelAndIgnoreRemainingEventsDisposesAtTheCurrentTickAndOptsOut() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a-b-c|")
    let results = scheduler.record(source)
    #expect(results.nextValue() == "a")
    results.cancelAndIgnoreRemainingEvents()
    scheduler.run()
    #expect(source.subscriptions == [Subscription(subscribed: 0, disposed: 1)])
    #expect(results.values == ["a"])
  }

  @Test func aRecorderNeverReadStepByStepIsNotChecked() throws {
    let scheduler = TestScheduler()
    let results = scheduler.record(try scheduler.cold("-a|"))
    scheduler.run()
    #expect(results.values == ["a"])
  }
}
