import MarbleTesting
import Marbles
import Signals
import Testing

/// `sample(_:)` on virtual time.
@Suite struct SignalSampleTests {
  func run(_ source: String, _ trigger: String, disposeAt: Int? = nil) throws -> (
    TestSubscriber<String, TestError>, TestSignal<String, TestError>,
    TestSignal<String, TestError>, TestScheduler
  ) {
    let scheduler = TestScheduler()
    let sourceSignal = try scheduler.cold(source)
    let triggerSignal = try scheduler.cold(trigger)
    let subscriber = scheduler.record(sourceSignal.sample(triggerSignal), disposeAt: disposeAt)
    return (subscriber, sourceSignal, triggerSignal, scheduler)
  }

  /// RAC 2.5's `sample:` sends the latest value on every trigger value, again if nothing new came.
  @Test func sendsTheLatestValueEachTimeTheTriggerSends() throws {
    let (subscriber, source, trigger, scheduler) = try run("-a-b----c--d|", "---x--x---x---|")
    scheduler.run()
    assertMarbles(subscriber, "---b--b---c-|")
    assertSubscriptions(source, "^-----------!")
    assertSubscriptions(trigger, "^-----------!")
  }

  @Test func theTriggersCompletionCompletes() throws {
    let (subscriber, source, _, scheduler) = try run("-a-b-c-|", "--x-|")
    scheduler.run()
    assertMarbles(subscriber, "--a-|")
    assertSubscriptions(source, "^---!")
  }

  @Test func anErrorFromEitherFailsAtOnce() throws {
    let (fromSource, _, trigger, scheduler) = try run("-a-#", "--x---x|")
    scheduler.run()
    assertMarbles(fromSource, "--a#")
    assertSubscriptions(trigger, "^--!")

    let (fromTrigger, source, _, otherScheduler) = try run("-a-b---|", "--x-#")
    otherScheduler.run()
    assertMarbles(fromTrigger, "--a-#")
    assertSubscriptions(source, "^---!")
  }

  @Test func disposingDisposesBothSubscriptions() throws {
    let (subscriber, source, trigger, scheduler) = try run("-a-b-c-|", "--x--x--x|", disposeAt: 4)
    scheduler.advance(to: 4)
    #expect(!scheduler.hasScheduledWork, "both signals' pending events were cancelled")
    assertMarbles(subscriber, "--a-")
    assertSubscriptions(source, "^---!")
    assertSubscriptions(trigger, "^---!")
  }

  @Test func inTheSameTickTheSourceSentFirstIsSampled() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("-a--b---|")
    let trigger = try scheduler.hot("----x---|")
    let subscriber = scheduler.record(source.sample(trigger))
    scheduler.run()
    assertMarbles(subscriber, "----b---|")
  }

  @Test func inTheSameTickTheTriggerSentFirstSamplesTheValueBefore() throws {
    let scheduler = TestScheduler()
    let trigger = try scheduler.hot("----x---|")
    let source = try scheduler.hot("-a--b---|")
    let subscriber = scheduler.record(source.sample(trigger))
    scheduler.run()
    assertMarbles(subscriber, "----a---|")
  }

  @Test func aTriggerBeforeTheFirstValueSendsNothing() throws {
    let (subscriber, _, _, scheduler) = try run("---a-----|", "-x---x-x|")
    scheduler.run()
    assertMarbles(subscriber, "-----a-a|")
  }
}
