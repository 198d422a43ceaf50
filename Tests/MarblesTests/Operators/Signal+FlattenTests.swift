import MarbleTesting
import Marbles
import Signals
import Testing

/// `flatten(_:)` and `flattenMap(_:_:)` on virtual time, for each strategy. The outer signal is a
/// cold signal whose values are cold inner test signals, so the inner subscription marbles show
/// when each strategy subscribes to and disposes an inner signal.
@Suite struct SignalFlattenTests {
  typealias Inner = Signal<String, TestError>

  /// The scenario of the doc comments: x at 1, y at 5, the outer signal completing at 12.
  struct Scenario {
    let scheduler = TestScheduler()
    let x: TestSignal<String, TestError>
    let y: TestSignal<String, TestError>
    let outer: TestSignal<Inner, TestError>

    init(
      outer: String = "-x---y------|", x: String = "-a---b|", y: String = "--c-d|"
    ) throws {
      self.x = try scheduler.cold(x)
      self.y = try scheduler.cold(y)
      self.outer = try scheduler.cold(
        outer, values: ["x": self.x.asSignal(), "y": self.y.asSignal()])
    }

    func run(
      _ strategy: FlattenStrategy, disposeAt: Int? = nil
    ) -> TestSubscriber<String, TestError> {
      let subscriber = scheduler.record(outer.flatten(strategy), disposeAt: disposeAt)
      scheduler.run()
      return subscriber
    }
  }

  // MARK: Happy paths

  @Test func mergeSubscribesToEveryInnerSignalAtOnce() throws {
    let scenario = try Scenario()
    assertMarbles(scenario.run(.merge), "--a---bc-d--|")
    assertSubscriptions(scenario.x, "-^-----!")
    assertSubscriptions(scenario.y, "-----^----!")
    assertSubscriptions(scenario.outer, "^-----------!")
  }

  @Test func concatSubscribesToEachInnerSignalWhenThePreviousCompletes() throws {
    let scenario = try Scenario()
    assertMarbles(scenario.run(.concat), "--a---b--c-d|")
    assertSubscriptions(scenario.x, "-^-----!")
    assertSubscriptions(scenario.y, "-------^----!")
  }

  @Test func latestDisposesThePreviousInnerSignalWhenTheNextArrives() throws {
    let scenario = try Scenario()
    assertMarbles(scenario.run(.latest), "--a----c-d--|")
    assertSubscriptions(scenario.x, "-^---!")
    assertSubscriptions(scenario.y, "-----^----!")
  }

  @Test func flattenMapWithAStrategyIsMapThenFlatten() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a---b------|")
    let inners = [
      "a": try scheduler.cold("-1---2|"), "b": try scheduler.cold("--3-4|"),
    ]
    let merged = scheduler.record(source.flattenMap(.merge) { inners[$0]!.asSignal() })
    let concatenated = scheduler.record(source.flattenMap(.concat) { inners[$0]!.asSignal() })
    let latest = scheduler.record(source.flattenMap(.latest) { inners[$0]!.asSignal() })
    scheduler.run()
    assertMarbles(merged, "--1---23-4--|")
    assertMarbles(concatenated, "--1---2--3-4|")
    assertMarbles(latest, "--1----3-4--|")
  }

  // MARK: Errors

  @Test(arguments: [FlattenStrategy.merge, .concat, .latest])
  func anInnerErrorFailsTheResultAndDisposesTheOuterSignal(strategy: FlattenStrategy) throws {
    let scenario = try Scenario(x: "-a#")
    assertMarbles(scenario.run(strategy), "--a#")
    assertSubscriptions(scenario.x, "-^-!")
    assertSubscriptions(scenario.y)
    assertSubscriptions(scenario.outer, "^--!")
  }

  @Test(arguments: [FlattenStrategy.merge, .concat, .latest])
  func anOuterErrorFailsTheResultAndDisposesTheInnerSignal(strategy: FlattenStrategy) throws {
    let scenario = try Scenario(outer: "-x--#")
    assertMarbles(scenario.run(strategy), "--a-#")
    assertSubscriptions(scenario.x, "-^--!")
  }

  // MARK: Disposal

  @Test(arguments: [FlattenStrategy.merge, .concat, .latest])
  func disposingMidFlightDisposesEverySubscriptionAndLeavesNoWork(
    strategy: FlattenStrategy
  ) throws {
    let scenario = try Scenario()
    let subscriber = scenario.scheduler.record(scenario.outer.flatten(strategy), disposeAt: 6)
    scenario.scheduler.advance(to: 6)
    #expect(!scenario.scheduler.hasScheduledWork, "the disposal cancelled every pending event")
    scenario.scheduler.run()
    assertSubscriptions(scenario.outer, "^-----!")
    switch strategy {
    case .merge, .concat:
      assertMarbles(subscriber, "--a---")
      assertSubscriptions(scenario.x, "-^----!")
    case .latest:
      assertMarbles(subscriber, "--a---")
      assertSubscriptions(scenario.x, "-^---!")
    }
    if strategy == .concat {
      assertSubscriptions(scenario.y)  // still queued: never subscribed
    } else {
      assertSubscriptions(scenario.y, "-----^!")
    }
  }

  // MARK: Edges

  @Test func concatRunsInnerSignalsThatCompleteAtOnceInALoop() throws {
    let scenario = try Scenario(outer: "(xxxy)|", x: "|", y: "-a|")
    assertMarbles(scenario.run(.concat), "-a----|")
    assertSubscriptions(scenario.x, "(^!)", "(^!)", "(^!)")
    assertSubscriptions(scenario.y, "^-!")
  }

  @Test func concatWaitsForItsQueuedInnerSignalsAfterTheOuterCompletes() throws {
    let scenario = try Scenario(outer: "(xy|)", x: "-a|", y: "-b|")
    assertMarbles(scenario.run(.concat), "-a-b|")
    assertSubscriptions(scenario.y, "--^-!")
  }

  @Test func latestIgnoresAReplacedInnerSignalsLaterErrorAndCompletes() throws {
    let scenario = try Scenario(outer: "-x--y|", x: "-a-----#", y: "-c|")
    assertMarbles(scenario.run(.latest), "--a--c|")
    assertSubscriptions(scenario.x, "-^--!")
  }

  @Test(arguments: [FlattenStrategy.merge, .concat, .latest])
  func completesOnlyOnceTheOuterAndItsInnerSignalsHaveCompleted(
    strategy: FlattenStrategy
  ) throws {
    let scenario = try Scenario(outer: "-x|")
    assertMarbles(scenario.run(strategy), "--a---b|")
  }

  @Test(arguments: [FlattenStrategy.merge, .concat, .latest])
  func anOuterSignalWithoutInnerSignalsCompletesWithIt(strategy: FlattenStrategy) throws {
    let scenario = try Scenario(outer: "---|")
    assertMarbles(scenario.run(strategy), "---|")
  }
}
