import Dispatch
import MarbleTesting
import Marbles
import Signals
import Synchronization
import Testing

/// `combineLatest(_:)` on virtual time. Pairs are recorded as two-character strings ("a1").
@Suite struct SignalCombineLatestTests {
  let pairs: [Character: String] = ["w": "a1", "x": "b1", "y": "b2", "z": "c2"]

  func combined(
    _ source: TestSignal<String, TestError>, _ other: TestSignal<String, TestError>
  ) -> Signal<String, TestError> {
    source.combineLatest(other).map { $0 + $1 }
  }

  @Test func sendsTheLatestPairWheneverEitherSendsOnceBothHaveSent() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a---b---c-|")
    let other = try scheduler.cold("---1---2-----|")
    let subscriber = scheduler.record(combined(source, other))
    scheduler.run()
    assertMarbles(subscriber, "---w-x-y-z---|", values: pairs)
    assertSubscriptions(source, "^----------!")
    assertSubscriptions(other, "^------------!")
  }

  @Test func completesOnlyOnceBothCompleteEvenIfOneNeverSentAValue() throws {
    // RAC 2.5's rule; RxSwift and RxJS would complete at 1, when source completes empty.
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-|")
    let other = try scheduler.cold("--1--2--|")
    let subscriber = scheduler.record(combined(source, other))
    scheduler.run()
    assertMarbles(subscriber, "--------|", values: pairs)
    assertSubscriptions(other, "^-------!")
  }

  @Test func theOthersErrorFailsTheResultAndDisposesTheSource() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a---b-|")
    let other = try scheduler.cold("---1#")
    let subscriber = scheduler.record(combined(source, other))
    scheduler.run()
    assertMarbles(subscriber, "---w#", values: pairs)
    assertSubscriptions(source, "^---!")
    assertSubscriptions(other, "^---!")
  }

  @Test func theSourcesErrorFailsTheResultAndDisposesTheOther() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a-#")
    let other = try scheduler.cold("--1---2-|")
    let subscriber = scheduler.record(combined(source, other))
    scheduler.run()
    assertMarbles(subscriber, "--w#", values: pairs)
    assertSubscriptions(other, "^--!")
  }

  @Test func disposingMidFlightDisposesBothAndLeavesNoWork() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-a---b---c-|")
    let other = try scheduler.cold("---1---2-----|")
    let subscriber = scheduler.record(combined(source, other), disposeAt: 6)
    scheduler.advance(to: 6)
    #expect(!scheduler.hasScheduledWork, "the disposal cancelled both signals' remaining events")
    scheduler.run()
    assertMarbles(subscriber, "---w-x", values: pairs)
    assertSubscriptions(source, "^-----!")
    assertSubscriptions(other, "^-----!")
  }

  @Test func valuesBeforeTheOthersFirstValueLeaveOnlyTheLatest() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("(ab)-|")
    let other = try scheduler.cold("--(12)|")
    let subscriber = scheduler.record(combined(source, other))
    scheduler.run()
    assertMarbles(subscriber, "--(xy)|", values: pairs)
  }

  @Test func aPairSentFromInsideTheDownstreamsCallbackComesAfterTheCurrentOne() {
    // The downstream's callback makes `other` send: the new pair is queued, not sent re-entrantly.
    let source = Subject<String, Never>()
    let other = Subject<String, Never>()
    let received = Mutex<[String]>([])
    source.combineLatest(other).subscribe(next: { first, second in
      received.withLock { $0.append(first + second) }
      if second == "1" { other.sendNext("2") }
    })
    source.sendNext("a")
    other.sendNext("1")
    #expect(received.withLock { $0 } == ["a1", "a2"])
  }

  @Test func twoThreadsSendingAtOnceNeverMakeAStalePairComeLast() {
    // Each pair is decided under the lock and sent in that order, so both halves only ever grow and
    // the last pair holds both signals' last values. Sending outside the lock without the ordered
    // queue could deliver an older pair after a newer one.
    let count = 2_000
    let source = Subject<Int, Never>()
    let other = Subject<Int, Never>()
    let pairs = Mutex<[(Int, Int)]>([])
    source.combineLatest(other).subscribe(next: { pair in pairs.withLock { $0.append(pair) } })
    source.sendNext(0)
    other.sendNext(0)
    DispatchQueue.concurrentPerform(iterations: 2) { side in
      for value in 1..<count {
        if side == 0 { source.sendNext(value) } else { other.sendNext(value) }
      }
    }
    let received = pairs.withLock { $0 }
    let isMonotonic = zip(received, received.dropFirst()).allSatisfy { earlier, later in
      earlier.0 <= later.0 && earlier.1 <= later.1
    }
    #expect(isMonotonic)
    #expect(received.count == 2 * count - 1)
    #expect(received.last.map { $0 == (count - 1, count - 1) } == true)
  }
}
