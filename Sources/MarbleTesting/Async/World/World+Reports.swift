import CMarbleRuntime
@_spi(Internals) import Signals

/// What a world says when it cannot go on: a deadlock, a wait outside it, a step limit.
extension World {
  /// The name of task `id` in reports: the name `scheduler.task(name:)` gave it, "the test" for
  /// the root, else "task N" in creation order since the world opened.
  func name(ofTask id: UInt64) -> String {
    if isRoot(id) { return "the test" }
    for driver in drivers {
      if let record = driver.core?.tasks.record(ofTask: id) { return record.name }
    }
    if let ordinal = ordinal(of: id) { return "task \(ordinal)" }
    return "a task outside the test's world (task id \(id))"
  }

  /// Task `id` as the subject of its own line in a report: its name, and for a task with no name
  /// of its own, the function it was started in where that is known ("task 2 (started in
  /// FeedModel.load())").
  func subject(ofTask id: UInt64) -> String {
    let name = name(ofTask: id)
    guard name.hasPrefix("task "), let function = startFunction(of: id) else { return name }
    return "\(name) (started in \(function))"
  }

  /// The unfinished tasks of the world, root first, with what each does; with `naming`, for a
  /// task waiting on a continuation, the function it waits in (read from its frames and the
  /// symbol table: for reports only, not for the idle decision's look at what waits outside).
  private func unfinishedTasks(naming: Bool = false) -> [(
    id: UInt64, status: Jobs.Status, sleepsUntil: Int?, waitsIn: String?
  )] {
    var tasks: [(id: UInt64, task: MarblesJobRef)] = []
    if let rootTask, case .task(let id) = root { tasks.append((id, rootTask)) }
    var sleeps: [UInt64: Int] = [:]
    for driver in drivers {
      tasks += Registry.shared.withLock { $0.tasks(of: driver) }
      for sleep in driver.sleepingTasks {
        if let id = sleep.taskID { sleeps[id] = sleep.wakeTick }
      }
    }
    return tasks.compactMap { entry in
      let status = Jobs.status(of: entry.task)
      guard !status.isComplete else { return nil }
      let waitsIn =
        naming && status.dependency == .continuation
        ? StartSites.function(waitingIn: entry.task) : nil
      return (entry.id, status, sleeps[entry.id], waitsIn)
    }
  }

  /// Whether a task outside the world that work of the world waits for is running or ready to
  /// run: it is making progress (a busy machine's pool may take long to get to it), so the wait
  /// for it goes on past the stall timeout.
  func isAwaitedOutsideWorkRunnable() -> Bool {
    var tasks: [MarblesJobRef] = []
    if let rootTask { tasks.append(rootTask) }
    for driver in drivers {
      tasks += Registry.shared.withLock { $0.tasks(of: driver).map(\.task) }
    }
    return tasks.contains { task in
      guard let awaited = Jobs.awaitedTask(of: task) else { return false }
      let id = swift_task_getJobTaskId(awaited)
      guard Registry.shared.withLock({ $0.world(ofTask: id) }) !== self else { return false }
      let status = Jobs.status(of: awaited)
      return status.isRunning || status.isEnqueued
    }
  }

  /// What of the world waits on something outside it, as text; empty when nothing does.
  func waitsOutside() -> [String] {
    var outside: [String] = []
    let tasks = unfinishedTasks()
    let ours = Set(tasks.map(\.id))
    for (id, status, _, _) in tasks {
      if case .task(let other) = status.dependency, !ours.contains(other) {
        outside.append("\(subject(ofTask: id)) waits for the value of \(name(ofTask: other))")
      } else if status.isRunning {
        outside.append(
          "\(subject(ofTask: id)) runs outside the world's thread (a thread, or an actor another test's work holds)"
        )
      } else if status.isEnqueued || status.dependency == .executor {
        outside.append(
          "\(subject(ofTask: id)) waits for its turn on an actor or the main actor, which runs work outside the test's world"
        )
      }
    }
    if hasUnansweredSignals {
      outside.append(
        "work of the world woke a thread outside it (a condition or a semaphore that thread waits "
          + "on), which may answer")
    }
    let handedOut = clock.outsideWork
    if handedOut > 0 {
      outside.append(
        "\(handedOut) piece\(handedOut == 1 ? "" : "s") of work the world handed to a thread or a "
          + "Dispatch queue outside it (Thread, dispatch_async) not done yet")
    }
    for driver in drivers {
      if driver.waitsForMain {
        outside.append("work of the world waits for the main actor, which never came free")
      }
      outside += driver.notes
    }
    return outside
  }

  /// How many times the world's work has woken a thread outside it.
  private var signals: UInt64 {
    clock.signals
  }

  /// Whether the world's work woke a thread outside it since the world last decided what to do
  /// with nothing to run: that thread may answer a wait of the world.
  var hasUnansweredSignals: Bool {
    let signals = signals
    return state.withLock { signals > $0.signalsAnswered }
  }

  /// The idle decision is over: the threads woken so far have had their chance to answer.
  func noteSignalsAnswered() {
    let signals = signals
    state.withLock { $0.signalsAnswered = max($0.signalsAnswered, signals) }
  }

  /// The report of a deadlock: the root waits, nothing is ready or due, and nothing outside the
  /// world is being waited for.
  func deadlockReport(top: TaskDriver) -> String {
    let tick = top.core?.now ?? 0
    let lines = unfinishedTasks(naming: true).map { id, status, _, waitsIn -> String in
      "  - \(subject(ofTask: id)) " + waitDescription(status, in: waitsIn)
    }
    return "The test's world is deadlocked at tick \(tick): the test waits, and nothing in its "
      + "world is ready to run or due at a later tick.\n" + lines.joined(separator: "\n")
      + "\nNothing will ever resume them, so the world's work was cancelled, to end the test's "
      + "waits. (A scheduler made at \(top.core?.site.description ?? "?").)"
  }

  /// What of the world still waits as it closes: each unfinished task but the root, with what it
  /// waits for, and the jobs left ready to run.
  func closingDescriptions() -> [String] {
    let tasks = unfinishedTasks(naming: true).filter { !isRoot($0.id) }.map {
      id, status, sleepsUntil, waitsIn in
      if let sleepsUntil { return "\(subject(ofTask: id)) sleeps until tick \(sleepsUntil)" }
      return "\(subject(ofTask: id)) " + waitDescription(status, in: waitsIn)
    }
    let ready = drivers.reduce(0) { $0 + $1.readyJobCount }
    return tasks + (ready > 0 ? ["\(ready) job\(ready == 1 ? "" : "s") ready to run"] : [])
  }

  /// What a task waits for, and for a continuation the function that waits on it, where known.
  private func waitDescription(_ status: Jobs.Status, in function: String? = nil) -> String {
    switch status.dependency {
    case .task(let other): "waits for the value of \(name(ofTask: other))"
    case .continuation:
      "waits\(function.map { " in \($0)" } ?? "") for a continuation that nothing in the world "
        + "resumes (withCheckedContinuation, an AsyncStream's next() whose producer is done or "
        + "waits too)"
    case .group: "waits for the children of its task group"
    case .executor: "waits for its turn on an actor"
    case nil: "is suspended"
    }
  }

  /// The report of a world whose work waited on something outside it for the stall timeout.
  func outsideReport(top: TaskDriver, _ outside: [String]) -> String {
    let tick = top.core?.now ?? 0
    return "The test's world waited \(top.stallTimeout) of real time at tick \(tick) for work "
      + "outside it, and nothing came: " + outside.joined(separator: "; ")
      + ". The world's work was cancelled, to end the test's waits. (A scheduler made at "
      + "\(top.core?.site.description ?? "?").)"
  }

  /// The report of a world that ran its step limit without its time moving: a livelock, naming
  /// the tasks that kept running, most steps first.
  func livelockReport(core: SchedulerCore, stop: SchedulerCore.StepLimitStop, steps: Int)
    -> String
  {
    // NB: the world's tasks only, not the runtime's one-job wake-ups of sleeps.
    let jobs = state.withLock { $0.jobsAtOneTime }
      .filter { isRoot($0.key) || ordinal(of: $0.key) != nil }
      .sorted { $0.value > $1.value }
    let running = jobs.prefix(5).map { id, count in
      "  - \(subject(ofTask: id)), \(count) job\(count == 1 ? "" : "s") since the count began"
    }
    return "The test's world is livelocked at tick \(core.now): it ran \(steps) steps "
      + "(\(core.stepLimitWords(stop))) without its time moving — work that keeps resuming itself "
      + "at one instant (a loop of zero-length sleeps, tasks that keep waking each other). What "
      + "kept running:\n"
      + (running.isEmpty ? ["  - " + core.stepLimitCause()] : running)
      .joined(separator: "\n")
      + "\nThe world's work was cancelled, to end the test's waits."
  }

  /// The report of a world that ran its step limit while its root waited.
  func stepLimitReport(core: SchedulerCore, stop: SchedulerCore.StepLimitStop, steps: Int)
    -> String
  {
    "The test's world ran \(steps) steps (\(core.stepLimitWords(stop))) at tick "
      + "\(core.now) while the test waited, without the test going on. What kept it going: "
      + core.stepLimitCause() + ". The world's work was cancelled, to end the test's waits."
  }
}
