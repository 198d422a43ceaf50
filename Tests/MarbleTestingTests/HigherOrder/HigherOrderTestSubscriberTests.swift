import MarbleTesting
import Signals
import Testing

@Suite struct HigherOrderTestSubscriberTests {
  typealias Inner = RecordedSignal<String, TestError>

  @Test func recordsEachInnerSignalFromTheFrameItIsSentWithTimesCountedFromThere() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A-B-|")
    let groups = scheduler.recordHigherOrder(source.groupBy { $0.lowercased() })
    scheduler.run()
    #expect(
      groups.events == [
        .next(1, Inner(events: [.next(0, "a"), .next(4, "A"), .completed(8)])),
        .next(3, Inner(events: [.next(0, "b"), .next(4, "B"), .completed(6)])),
        .completed(9),
      ])
  }

  @Test func subscribesAColdInnerSignalWhenItIsSent() throws {
    let scheduler = TestScheduler()
    let first = try scheduler.cold("-x|")
    let second = try scheduler.cold("(y|)")
    let outer = try scheduler.cold("--a--b|", values: ["a": first, "b": second])
    let windows = scheduler.recordHigherOrder(outer)
    scheduler.run()
    #expect(
      windows.events == [
        .next(2, Inner(events: [.next(1, "x"), .completed(2)])),
        .next(5, Inner(events: [.next(0, "y"), .completed(0)])),
        .completed(6),
      ])
    #expect(first.subscriptions == [Subscription(2, 4)])
    #expect(second.subscriptions == [Subscription(5, 5)])
  }

  @Test func disposingTheOuterSubscriptionLeavesInnerSignalsRecording() throws {
    let scheduler = TestScheduler()
    let window = try scheduler.cold("---x|")
    let outer = try scheduler.cold("-a---a|", values: ["a": window])
    let windows = scheduler.recordHigherOrder(outer, subscribeAt: 0, disposeAt: 3)
    scheduler.run()
    #expect(windows.events == [.next(1, Inner(events: [.next(3, "x"), .completed(4)]))])
    #expect(outer.subscriptions == [Subscription(0, 3)])
    #expect(window.subscriptions == [Subscription(1, 5)])
  }

  @Test func aRecordedSignalPrintsAsItsMarble() {
    #expect(Inner(events: [.next(1, "x"), .next(1, "y"), .completed(5)]).description == "-(xy)|")
    #expect(Inner(events: []).description == "")
  }

  @Test func parsesAMarbleOfInnerMarbles() throws {
    let events = try Marble.parse(
      "--a--b|", inner: ["a": "-x|", "b": "(y#)"], values: ["x": 1, "y": 2], error: TestError())
    #expect(
      events == [
        .next(2, RecordedSignal(events: [.next(1, 1), .completed(2)])),
        .next(5, RecordedSignal(events: [.next(0, 2), .error(0, TestError())])),
        .completed(6),
      ])
  }

  @Test func aMistakeInAnInnerMarbleNamesItsKey() {
    #expect(
      throws: MarbleSyntaxError(
        message: "in the inner marble of `b`: '(' is never closed", line: 1, column: 2,
        sourceLine: "-(y|")
    ) {
      try Marble.parse(
        "-a-b|", inner: ["a": "x|", "b": "-(y|"], values: Marble.characterValues,
        error: TestError())
    }
  }

  @Test func anOuterValueWithoutAnInnerMarbleIsAnError() {
    #expect(throws: MarbleSyntaxError.self) {
      try Marble.parse(
        "-a-c|", inner: ["a": "x|"], values: Marble.characterValues, error: TestError())
    }
  }
}
