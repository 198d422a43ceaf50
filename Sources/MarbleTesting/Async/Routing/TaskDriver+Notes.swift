import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// What a driver's work did outside virtual time, named in its reports.
extension TaskDriver {
  /// Notes something driven work did outside virtual time, once.
  func note(_ note: String) {
    watch.withLock { watch in
      if !watch.notes.contains(note) { watch.notes.append(note) }
    }
    schedule?.noteUncontrolled(note)
  }

  /// What driven work did outside virtual time.
  package var notes: [String] {
    noteBlockingWaitsOnTheClock()
    return watch.withLock { $0.notes }
  }

  /// The notes no report has named yet, marking them named.
  package func takeUnnamedNotes() -> [String] {
    noteBlockingWaitsOnTheClock()
    return watch.withLock { watch in
      defer { watch.notesNamed = watch.notes.count }
      return Array(watch.notes.dropFirst(watch.notesNamed))
    }
  }

  /// Notes a thread of driven work that read one virtual instant for longer than the stall
  /// timeout — a blocking wait on the clock, which virtual time cannot end while it blocks — and
  /// whose readings therefore moved on in real time.
  func noteBlockingWaitsOnTheClock() {
    guard let thawedAt = clock.lastThawedAt, let core else { return }
    note(
      "a blocking wait read the clock at tick "
        + "\(core.tick(atTimelineNanoseconds: thawedAt.saturatingNanoseconds)) for longer than the stall "
        + "timeout (\(stallTimeout) of real time) — Thread.sleep, or a loop waiting for the clock "
        + "to pass a time — and virtual time cannot move while it blocks, so its readings moved "
        + "on in real time until it ended; use a standard sleep (Task.sleep) in driven work")
  }
}
