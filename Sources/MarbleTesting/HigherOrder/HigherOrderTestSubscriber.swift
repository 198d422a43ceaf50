public import Signals

/// A recorder for a higher-order signal — a signal whose values are signals — that subscribes to
/// each inner signal at the frame it is sent and records it too.
///
/// Made by ``TestScheduler/recordHigherOrder(_:subscribeAt:disposeAt:)``. Its ``events`` are the
/// outer signal's events, each inner signal standing as a ``RecordedSignal`` whose times count from
/// the frame it was sent at — RxJS's semantics for an observable of observables, so that
/// `--a--b|` with `a = -x|` means "an inner signal at frame 2 that sends `x` one frame later".
///
/// Each inner signal is subscribed synchronously, inside the outer signal's `sendNext`, so a hot
/// inner signal (a ``/Signals/GroupedSignal``) is recorded from its first value. An inner signal stays
/// recorded until it terminates, even after the outer subscription is disposed, as in RxJS.
public final class HigherOrderTestSubscriber<Value: Sendable, Failure: Error>: Sendable {
  /// The scheduler whose clock stamps the events, or `nil` once that has been released (a
  /// recorder never keeps its scheduler alive).
  public var scheduler: TestScheduler? { outer.scheduler }
  /// The scheduler's engine.
  package var core: SchedulerCore { outer.core }
  private let outer: TestSubscriber<TestSubscriber<Value, Failure>, Failure>

  init(outer: TestSubscriber<TestSubscriber<Value, Failure>, Failure>) {
    self.outer = outer
  }

  /// The outer events with their ticks, each inner signal recorded with times counted from the
  /// tick it was sent at.
  public var events: [Recorded<Event<RecordedSignal<Value, Failure>, Failure>>] {
    outer.events.map { sent in
      Recorded(
        time: sent.time,
        value: sent.value.map { inner in
          RecordedSignal(
            events: inner.events.map { Recorded(time: $0.time - sent.time, value: $0.value) })
        })
    }
  }

  /// Disposes the outer subscription now (if it has started); inner signals already sent stay
  /// recorded.
  public func dispose() {
    outer.dispose()
  }
}

extension TestScheduler {
  /// Subscribes a recorder to a higher-order signal at tick `subscribeAt`, and disposes it at
  /// `disposeAt`; every inner signal is subscribed and recorded the moment it is sent.
  ///
  /// ```swift
  /// let source = try scheduler.cold("-a-b-A-B-|")
  /// let groups = scheduler.recordHigherOrder(source.groupBy { $0.lowercased() })
  /// scheduler.run()
  /// assertMarbles(groups, "-x-y-----|", inner: ["x": "a---A---|", "y": "b---B-|"])
  /// ```
  ///
  /// - Parameters:
  ///   - signal: The signal of signals to subscribe to.
  ///   - subscribeAt: The tick to subscribe at.
  ///   - disposeAt: The tick to dispose the outer subscription at, or `nil` to stay subscribed.
  /// - Returns: The recorder.
  public func recordHigherOrder<S: SignalProtocol>(
    _ signal: S, subscribeAt: Int = 0, disposeAt: Int? = nil
  ) -> HigherOrderTestSubscriber<S.Value.Value, S.Failure>
  where S.Value: SignalProtocol, S.Value.Failure == S.Failure {
    // The engine, not the scheduler: the closure waits in the scheduler's queue.
    let core = core
    let recorders = signal.map { inner in
      let recorder = TestSubscriber<S.Value.Value, S.Failure>(core: core)
      _ = inner.subscribe(recorder)
      return recorder
    }
    return HigherOrderTestSubscriber(
      outer: record(recorders, subscribeAt: subscribeAt, disposeAt: disposeAt))
  }
}
