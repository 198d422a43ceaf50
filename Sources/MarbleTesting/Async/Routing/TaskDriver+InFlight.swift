import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// A driver's tasks in flight elsewhere: a task queued on, or running on, an actor whose jobs
/// another test's drain runs, which a drain waits for before it ends.
extension TaskDriver {
  /// The tasks whose jobs a drain ran, unfinished, since it last looked for work queued on an
  /// actor elsewhere: by id up to a bound, past it every task the driver owns — so that a long
  /// drain (a million tasks in one `advance`) keeps no list that long.
  struct TasksRan {
    private(set) var ids: [UInt64] = []
    private(set) var isEveryTask = false
    private static let bound = 1_024

    var isEmpty: Bool { !isEveryTask && ids.isEmpty }

    mutating func note(_ id: UInt64) {
      guard !isEveryTask, ids.last != id else { return }
      if ids.count < Self.bound {
        ids.append(id)
      } else {
        isEveryTask = true
        ids = []
      }
    }

    mutating func clear() {
      ids.removeAll(keepingCapacity: true)
      isEveryTask = false
    }
  }

  /// Waits, in real time, while a task of this driver waits its turn on an actor that runs work
  /// outside the drain — an actor instance another test shares, whose queue that test's drain
  /// runs — and while such a task then runs there, until one of its jobs is ready again, nothing
  /// of it is in flight, or ``stallTimeout`` passes: a drain must not end while its own work is
  /// under way elsewhere (a test that shares an actor with the tests beside it saw its tasks
  /// unfinished when `run()` returned, and its schedule 0 fail).
  ///
  /// - Parameter ran: The tasks whose jobs ran since the drain last looked: no other task can
  ///   have gone to an actor meanwhile. (Every owned task, looked at by every `advance`, made a
  ///   thousand sleepers' thousand advances take 20 ms instead of 5.)
  /// - Returns: Whether a job is ready.
  func awaitsWorkInFlightElsewhere(among ran: TasksRan) -> Bool {
    guard world != nil, !ran.isEmpty else { return false }
    // NB: read once something is in flight: every drain ends here.
    var deadline: Int64?
    var pause = Duration.microseconds(10)
    /// The tasks seen waiting for an actor: while one then runs, it is still in flight.
    var queued: Set<UInt64> = []
    while readyJobCount == 0 {
      let isInFlight = Registry.shared.withLock { registry in
        var isInFlight = false
        let tasks =
          ran.isEveryTask
          ? registry.tasks(of: self)
          : ran.ids.compactMap { id in registry.task(id, ownedBy: self).map { (id, $0) } }
        for (id, task) in tasks {
          let status = Jobs.status(of: task)
          if status.isComplete { continue }
          if status.isEnqueued, status.dependency == .executor {
            queued.insert(id)
            isInFlight = true
          } else if status.isRunning, queued.contains(id) {
            isInFlight = true
          }
        }
        return isInFlight
      }
      guard isInFlight else { break }
      let now = SchedulerCore.realNanoseconds()
      let end = deadline ?? now &+ stallTimeout.saturatingNanoseconds
      deadline = end
      guard now < end else { break }
      Platform.sleep(pause)
      pause = min(pause * 2, .milliseconds(1))
    }
    return readyJobCount > 0
  }
}
