import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

/// `groupBy(_:)` on virtual time. The outer signal is checked by its keys; each group is recorded
/// by a subscriber that subscribes inside the callback receiving the group (groups are hot).
@Suite struct SignalGroupByTests {
  /// Records the keys of the groups, and each group from the moment it is sent.
  final class GroupRecorder: Sendable {
    let scheduler: TestScheduler
    private let groups = Mutex<[String: TestSubscriber<String, TestError>]>([:])

    init(_ scheduler: TestScheduler) {
      self.scheduler = scheduler
    }

    /// The signal of keys; subscribing to it records each group as it arrives.
    func keys(of source: some SignalProtocol<String, TestError>) -> Signal<String, TestError> {
      source.groupBy { $0.lowercased() }.map { group in
        let subscriber = TestSubscriber<String, TestError>(self.scheduler)
        self.groups.withLock { $0[group.key] = subscriber }
        group.subscribe(subscriber)
        return group.key
      }
    }

    subscript(key: String) -> TestSubscriber<String, TestError> {
      groups.withLock { $0[key]! }
    }
  }

  @Test func sendsAGroupPerKeyAndEachGroupItsValues() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A-B-|")
    let groups = GroupRecorder(scheduler)
    let keys = scheduler.record(groups.keys(of: source))
    scheduler.run()
    assertMarbles(keys, "-a-b-----|")
    assertMarbles(groups["a"], "-a---A---|")
    assertMarbles(groups["b"], "---b---B-|")
    assertSubscriptions(source, "^--------!")
  }

  @Test func anErrorFailsTheResultAndEveryGroup() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A#")
    let groups = GroupRecorder(scheduler)
    let keys = scheduler.record(groups.keys(of: source))
    scheduler.run()
    assertMarbles(keys, "-a-b--#")
    assertMarbles(groups["a"], "-a---A#")
    assertMarbles(groups["b"], "---b--#")
  }

  @Test func disposingMidFlightDisposesTheSourceAndTheGroupsHearNoMore() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A-B-|")
    let groups = GroupRecorder(scheduler)
    let keys = scheduler.record(groups.keys(of: source), disposeAt: 4)
    scheduler.advance(to: 4)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled the source's remaining events")
    scheduler.run()
    assertMarbles(keys, "-a-b")
    assertMarbles(groups["a"], "-a--")  // RAC 2.5: no terminal event after disposal
    assertSubscriptions(source, "^---!")
  }

  @Test func groupsAreHotALateSubscriberMissesEarlierValues() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-b-A-B-|")
    let late = TestSubscriber<String, TestError>(scheduler)
    let keys = scheduler.record(
      source.groupBy { $0.lowercased() }.map { group in
        if group.key == "a" {
          _ = scheduler.schedule(at: 4) { group.subscribe(late) }
        }
        return group.key
      })
    scheduler.run()
    assertMarbles(keys, "-a-b-----|")
    assertMarbles(late, "-----A---|")
  }

  @Test func aSubscriberAfterTheSourceEndedGetsTheTerminalEventAtOnce() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a|")
    let late = TestSubscriber<String, TestError>(scheduler)
    let keys = scheduler.record(
      source.groupBy { $0 }.map { group in
        _ = scheduler.schedule(at: 5) { group.subscribe(late) }
        return group.key
      })
    scheduler.run()
    assertMarbles(keys, "-a|")
    assertMarbles(late, "-----|")
  }

  @Test func eachSubscriptionMakesItsOwnGroups() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-A|")
    let first = GroupRecorder(scheduler)
    let second = GroupRecorder(scheduler)
    _ = scheduler.record(first.keys(of: source))
    _ = scheduler.record(second.keys(of: source), subscribeAt: 2)
    scheduler.run()
    assertMarbles(first["a"], "-a-A|")
    assertMarbles(second["a"], "---a-A|")
  }
}
