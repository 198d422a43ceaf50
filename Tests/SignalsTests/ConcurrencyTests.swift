import Dispatch
import Signals
import Synchronization
import Testing

/// Thread safety. `make test-tsan` runs this suite under the thread sanitizer (`--filter Concurrency`).
@Suite("Concurrency", .tags(.concurrency), .serialized)
struct ConcurrencyTests {
  /// A value stamped with its sender and its position in that sender's sequence.
  struct Stamp: Sendable {
    let sender: Int
    let index: Int
  }

  /// A subscriber that checks, per sender, that it sees a gap-free, increasing run of indices, and
  /// that its callbacks never overlap.
  final class StampChecker: SubscriberProtocol, Sendable {
    private struct State {
      var last: [Int: Int] = [:]
      var count = 0
      var gaps = 0
      var terminals = 0
    }
    private let state = TestLock(State())
    let overlaps = OverlapDetector()
    /// Whether the first value from a sender may be any index (a joiner) or must be 0.
    let mustStartAtZero: Bool
    /// Signalled once `target` values have arrived.
    let reachedTarget = DispatchSemaphore(value: 0)
    private let target: Int

    init(mustStartAtZero: Bool, target: Int = .max) {
      self.mustStartAtZero = mustStartAtZero
      self.target = target
    }

    func sendNext(_ stamp: Stamp) {
      overlaps.enter()
      let count = state.withLock { state in
        let expected =
          state.last[stamp.sender].map { $0 + 1 } ?? (mustStartAtZero ? 0 : stamp.index)
        if stamp.index != expected { state.gaps += 1 }
        state.last[stamp.sender] = stamp.index
        state.count += 1
        return state.count
      }
      if count == target { reachedTarget.signal() }
      overlaps.exit()
    }
    func sendError(_ error: Never) {}
    func sendCompleted() {
      overlaps.enter()
      state.withLock { $0.terminals += 1 }
      overlaps.exit()
    }

    var count: Int { state.withLock { $0.count } }
    var gaps: Int { state.withLock { $0.gaps } }
    var terminals: Int { state.withLock { $0.terminals } }
  }

  @Test(
    "8 threads × 100,000 sends into one Subject while others subscribe and dispose: all delivered, serialized"
  )
  func manySendersWithJoiners() async {
    let senders = 8
    let perSender = 100_000
    let subject = Subject<Stamp, Never>()
    let whole = StampChecker(mustStartAtZero: true)
    subject.subscribe(whole)
    let sendersDone = Atomic(0)
    let joiners = TestLock<[StampChecker]>([])

    let finished = await runOnThreads(senders + 2) { thread in
      if thread < senders {
        for index in 0..<perSender { subject.sendNext(Stamp(sender: thread, index: index)) }
        sendersDone.add(1, ordering: .sequentiallyConsistent)
      } else {
        // Join, receive a while, leave; again and again until the senders are done. At most one
        // joiner per thread is subscribed at a time.
        while sendersDone.load(ordering: .sequentiallyConsistent) < senders {
          let joiner = StampChecker(mustStartAtZero: false, target: 500)
          let subscription = subject.subscribe(joiner)
          joiners.withLock { $0.append(joiner) }
          while joiner.reachedTarget.wait(timeout: .now() + .milliseconds(5)) == .timedOut,
            sendersDone.load(ordering: .sequentiallyConsistent) < senders
          {}
          subscription.dispose()
        }
      }
    }
    #expect(finished, "deadlock: the threads did not finish")
    subject.sendCompleted()

    #expect(whole.count == senders * perSender)
    #expect(whole.gaps == 0)
    #expect(whole.terminals == 1)
    #expect(whole.overlaps.overlapCount == 0)
    let all = joiners.withLock { $0 }
    #expect(!all.isEmpty)
    #expect(all.map(\.gaps).reduce(0, +) == 0)
    #expect(all.map(\.overlaps.overlapCount).reduce(0, +) == 0)
    #expect(all.allSatisfy { $0.terminals <= 1 })
  }

  @Test("Concurrent sends to a cold signal's subscriber reach it one at a time, all of them")
  func coldSubscriberIsSerialized() async {
    let captured = TestLock<(any SubscriberProtocol<Stamp, Never>)?>(nil)
    let signal = Signal<Stamp, Never> { subscriber in
      captured.withLock { $0 = subscriber }
      return nil
    }
    let checker = StampChecker(mustStartAtZero: true)
    signal.subscribe(checker)
    let subscriber = captured.withLock { $0 }!
    let finished = await runOnThreads(4) { thread in
      for index in 0..<20_000 { subscriber.sendNext(Stamp(sender: thread, index: index)) }
    }
    #expect(finished)
    subscriber.sendCompleted()
    subscriber.sendCompleted()
    #expect(checker.count == 80_000)
    #expect(checker.gaps == 0)
    #expect(checker.terminals == 1)
    #expect(checker.overlaps.overlapCount == 0)
  }

  @Test(
    "20 threads calling connect() at once: one upstream subscription, one disposable, no deadlock")
  func concurrentConnect() async {
    for _ in 0..<50 {
      let runs = Counter()
      let source = Signal<Int, Never> { subscriber in
        runs.increment()
        subscriber.sendNext(1)
        return nil
      }
      let connection = source.publish()
      let disposables = TestLock<[ObjectIdentifier]>([])
      let finished = await runOnThreads(20) { _ in
        let disposable = connection.connect()
        disposables.withLock { $0.append(ObjectIdentifier(disposable as AnyObject)) }
      }
      #expect(finished, "deadlock in connect()")
      #expect(runs.value == 1)
      #expect(Set(disposables.withLock { $0 }).count == 1)
    }
  }

  @Test("20 threads subscribing to autoconnect at once: one upstream subscription")
  func concurrentAutoconnect() async {
    for _ in 0..<20 {
      let runs = Counter()
      let source = Signal<Int, Never> { _ in
        runs.increment()
        return nil
      }
      let shared = source.publish().autoconnect()
      let subscriptions = TestLock<[any Disposable]>([])
      let finished = await runOnThreads(20) { _ in
        let subscription = shared.subscribe(Recorder<Int, Never>())
        subscriptions.withLock { $0.append(subscription) }
      }
      #expect(finished, "deadlock in autoconnect")
      #expect(runs.value == 1)
      for subscription in subscriptions.withLock({ $0 }) { subscription.dispose() }
    }
  }

  @Test(
    "ReplaySubject: a joiner during concurrent sends sees every value exactly once, in order",
    arguments: [Int.max, 16])
  func replaySubjectJoinersSeeGapFreeSequences(capacity: Int) async {
    let count = 20_000
    let subject = ReplaySubject<Int, Never>(capacity: capacity)
    let joiners = TestLock<[(Recorder<Int, Never>, OverlapDetector, kept: Bool)]>([])
    let senderDone = Atomic(false)

    let finished = await runOnThreads(2) { thread in
      if thread == 0 {
        for value in 0..<count { subject.sendNext(value) }
        subject.sendCompleted()
        senderDone.store(true, ordering: .sequentiallyConsistent)
      } else {
        var round = 0
        // Keep joining until a little after the sender is done, to catch the completion too.
        var roundsAfterDone = 0
        while roundsAfterDone < 5 && round < 400 {
          if senderDone.load(ordering: .sequentiallyConsistent) { roundsAfterDone += 1 }
          let overlaps = OverlapDetector()
          let recorder = Recorder<Int, Never> { _, _ in
            overlaps.enter()
            overlaps.exit()
          }
          let subscription = subject.subscribe(recorder)
          let kept = round.isMultiple(of: 3)
          if !kept { subscription.dispose() }
          joiners.withLock { $0.append((recorder, overlaps, kept)) }
          round += 1
        }
      }
    }
    #expect(finished, "deadlock")

    let all = joiners.withLock { $0 }
    #expect(!all.isEmpty)
    for (index, (recorder, overlaps, kept)) in all.enumerated() {
      let values = recorder.values
      let consecutive = zip(values, values.dropFirst()).allSatisfy { $1 == $0 + 1 }
      #expect(consecutive, "joiner \(index) saw a gap, a duplicate or a reordering")
      if capacity == .max, let first = values.first {
        #expect(first == 0, "joiner \(index) missed the start of the replay")
      }
      #expect(overlaps.overlapCount == 0)
      if kept {
        // A joiner kept to the end sees the sequence through to the last value, then completion.
        #expect(recorder.events.last == .completed, "joiner \(index) was not completed")
        #expect(values.last == count - 1, "joiner \(index) did not reach the last value")
        if capacity != .max { #expect(values.count >= min(capacity, count)) }
      }
    }
  }

  @Test("Subscribing and disposing from many threads while a subject completes: one terminal each")
  func completionRacesWithSubscriptions() async {
    for _ in 0..<20 {
      let subject = ReplaySubject<Int, TestFailure>(capacity: 4)
      let recorders = TestLock<[Recorder<Int, TestFailure>]>([])
      let finished = await runOnThreads(6) { thread in
        if thread == 0 {
          for value in 0..<1_000 { subject.sendNext(value) }
          subject.sendCompleted()
        } else if thread == 1 {
          for _ in 0..<1_000 { subject.sendNext(-1) }
          subject.sendError(TestFailure())
        } else {
          for _ in 0..<50 {
            let recorder = Recorder<Int, TestFailure>()
            subject.subscribe(recorder)
            recorders.withLock { $0.append(recorder) }
          }
        }
      }
      #expect(finished)
      let late = Recorder<Int, TestFailure>()
      subject.subscribe(late)
      let terminal = late.events.last
      #expect(terminal?.isTerminal == true)
      for recorder in recorders.withLock({ $0 }) {
        let events = recorder.events
        #expect(events.filter(\.isTerminal).count == 1)
        #expect(events.last == terminal)
      }
    }
  }
}
