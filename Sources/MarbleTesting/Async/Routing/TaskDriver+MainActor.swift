import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// A driver's waits for the main actor: work bound for it runs on the main queue, which a drain on
/// another thread waits for — at most the stall timeout — and a task whose job the main actor
/// never took is named as waiting for it.
extension TaskDriver {
  /// Runs `work` as this driver's on the main queue, from a drain on another thread, and waits for
  /// it — at most ``stallTimeout`` of real time.
  ///
  /// - Parameters:
  ///   - stopsWaiting: Called if the wait ends first (the main queue stayed busy).
  ///   - runsLate: Called if `work` runs after the wait ended.
  /// - Returns: Whether `work` ran within the wait.
  func onTheMainQueue(
    _ work: @escaping @Sendable () -> Void, stopsWaiting: () -> Void = {},
    runsLate: @escaping @Sendable () -> Void = {}
  ) -> Bool {
    onQueue(
      { work in RealTime.reading { DispatchQueue.main.async(execute: work) } }, work,
      stopsWaiting: stopsWaiting, runsLate: runsLate)
  }

  /// Runs `work` as this driver's where `submit` sends it, and waits for it — at most
  /// ``stallTimeout`` of real time.
  func onQueue(
    _ submit: (@escaping @Sendable () -> Void) -> Void, _ work: @escaping @Sendable () -> Void,
    stopsWaiting: () -> Void = {}, runsLate: @escaping @Sendable () -> Void = {}
  ) -> Bool {
    let done = DispatchSemaphore(value: 0)
    // Whether the work has run, and whether the drain stopped waiting for it.
    let handOff = Locked((ran: false, gaveUp: false))
    submit {
      self.withCurrentDriver(work)
      let isLate = handOff.withLock { handOff in
        handOff.ran = true
        return handOff.gaveUp
      }
      if isLate { runsLate() }
      RealTime.reading { _ = done.signal() }
    }
    let isDone = RealTime.reading {
      done.wait(timeout: RealTime.deadline(after: stallTimeout)) == .success
    }
    guard isDone else {
      let isLate = handOff.withLock { handOff in
        handOff.gaveUp = true
        return !handOff.ran
      }
      if isLate { stopsWaiting() }
      return !isLate
    }
    return true
  }

  /// Whether task `id`'s main-actor job waits for a main actor that never came free.
  package func isWaitingForTheMainActor(_ id: UInt64?) -> Bool {
    guard let id else { return false }
    return watch.withLock { $0.waitingForTheMainActor.contains(id) }
  }

  /// Whether a task's main-actor job waits for a main actor that never came free.
  var waitsForMain: Bool {
    watch.withLock { !$0.waitingForTheMainActor.isEmpty }
  }
}
