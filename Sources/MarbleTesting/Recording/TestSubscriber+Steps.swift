@_spi(Internals) package import Signals

/// A recorder's read position for step-by-step assertions (the `Marbles` module's `nextEvent()`,
/// `nextValue()`, `expectCompletion()` and the rest): the events the test has taken, and whether
/// it opted out of taking the rest. Recording is unchanged; `events`, `values` and marbles still
/// see everything.
struct StepReading: Sendable {
  /// How many of the recorded events the test has taken.
  var taken = 0
  /// Where the test last stepped through the recorder; `nil` until it first does.
  var site: SchedulerSite?
  /// Whether the test ended with `cancelAndIgnoreRemainingEvents()`.
  var isCancelled = false
  /// Whether events never taken have been reported (once, at the recorder's or the scheduler's
  /// release).
  var isChecked = false
}

extension TestSubscriber {
  /// Notes that the test reads this recorder step by step, at `site`: from now on it must take
  /// every event, or cancel. Registers the recorder with its scheduler, which checks it when it
  /// is released first.
  package func noteStep(at site: SchedulerSite) {
    let isFirst = steps.withLock { steps -> Bool in
      defer { steps.site = site }
      return steps.site == nil
    }
    guard isFirst else { return }
    core.steppedRecorders.withLock { recorders in
      recorders[ObjectIdentifier(self)] = { [weak self] in self?.takeExhaustiveFinding() }
    }
  }

  /// Takes the oldest event the test has not taken yet, if there is one.
  package func takeEvent() -> Recorded<Event<Value, Failure>>? {
    let count = eventCount
    let index = steps.withLock { steps -> Int? in
      guard steps.taken < count else { return nil }
      defer { steps.taken += 1 }
      return steps.taken
    }
    return index.flatMap(event(at:))
  }

  /// Whether an event the test has not taken yet is there.
  package var hasUntakenEvent: Bool {
    let count = eventCount
    return steps.withLock { $0.taken < count }
  }

  /// The events the test has not taken yet.
  package var untakenEvents: [Recorded<Event<Value, Failure>>] {
    events(from: steps.withLock { $0.taken })
  }

  /// Disposes the recording now and stops requiring the test to take the remaining events.
  package func cancelSteps() {
    steps.withLock { $0.isCancelled = true }
    dispose()
  }

  /// The failure for events the test never took, once: `nil` if it did not read the recorder
  /// step by step, cancelled, took every event, or was told already.
  func takeExhaustiveFinding() -> (message: String, site: SchedulerSite)? {
    // NB: asked at every recorder's release: the events are copied out only for one read step
    // by step.
    guard steps.withLock({ $0.site != nil && !$0.isCancelled && !$0.isChecked }) else {
      return nil
    }
    let untaken = untakenEvents
    return steps.withLock { steps -> (String, SchedulerSite)? in
      guard let site = steps.site, !steps.isCancelled, !steps.isChecked, !untaken.isEmpty else {
        return nil
      }
      steps.isChecked = true
      let listed = MessageBounds.list(
        untaken.map { MessageBounds.valueText("\($0.value)") + " at tick \($0.time)" })
      return (
        "a recorder read step by step (last at \(site)) was released with "
          + "\(untaken.count) event\(untaken.count == 1 ? "" : "s") never taken: \(listed). Take "
          + "them (nextEvent(), nextValue(), expectCompletion(), expectFailure(), skip(_:)), or "
          + "end with cancelAndIgnoreRemainingEvents().", site
      )
    }
  }
}
