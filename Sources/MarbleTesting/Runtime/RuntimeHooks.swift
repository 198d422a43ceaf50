import CMarbleRuntime
import Dispatch
@_spi(Internals) import Signals
import Synchronization

/// The runtime hooks Marbles installs, and when: a good neighbour in the test process. Nothing is
/// installed when the process loads; a process that opens no world is untouched.
///
/// - **When the first world opens** (``worldOpens()``): the global enqueue hook, chained to the
///   hook it found (swift-concurrency-extras' `withMainSerialExecutor`, swift-async-algorithms'
///   validation diagrams): the jobs Marbles does not take go there; the main executor hook,
///   which answers every "which executor is the main actor's?" with ``MainActorRouter``; and the
///   "is this the main executor?" hook, which counts the router as well. Also,
///   once, the default executor (``DefaultExecutor``) and the Dispatch handlers of the virtual
///   clock, which pass everything through while no world is open.
/// - **Checked again at every new scheduler** (``schedulerJoins()``): another library may have
///   replaced the global hook meanwhile.
/// - **When the last world closes** (``worldCloses()``): the hooks found are put back, unless
///   another library replaced Marbles' meanwhile (then that one stays).
///
/// A main-actor job that is running when the first world opens keeps running on the runtime's own
/// main executor until it suspends; since both count as the main executor, the runtime's isolation
/// checks accept either for the other (a `Task.immediate` in that job starts at once).
///
/// Everything here is compiled only for the toolchains Marbles was tested on
/// (`MARBLES_TESTED_RUNTIME`, set by the manifest for Swift 6.3), and runs only on the runtimes
/// they ship (``isAvailable``); elsewhere schedulers drive signals and `scheduler.task`s only, and
/// say so once (``untestedToolchainNotice``).
package enum RuntimeHooks {
  private struct State {
    /// How many schedulers that drive tasks are alive.
    var schedulers = 0
    /// Whether the global hook Marbles installed is in place (as far as Marbles knows).
    var isInstalled = false
    var hasSaidToolchain = false
  }

  private static let state = Locked(State())
  /// The global hook found when Marbles installed its own, which it calls for the jobs it does not
  /// take; read by the hook without a lock.
  private static let foundGlobalHook = Atomic<UInt>(0)

  #if MARBLES_TESTED_RUNTIME
    /// Marbles' global enqueue hook.
    private static let globalHook: MarblesGlobalHook = { job, original in
      guard !Membership.take(job, on: .global) else { return }
      ThreadSlot.bypassing {
        if let found = UnsafeRawPointer(
          bitPattern: RuntimeHooks.foundGlobalHook.load(ordering: .acquiring))
        {
          unsafeBitCast(found, to: MarblesGlobalHook.self)(job, original)
        } else {
          original(job)
        }
      }
    }
  #endif

  /// Whether Marbles' runtime code runs in this process: compiled for a toolchain it was tested
  /// on (`MARBLES_TESTED_RUNTIME`), and — on Apple platforms, where the concurrency runtime is the
  /// OS's — running on an OS whose runtime is that toolchain's (``Platform/runsTheTestedRuntime``).
  package static let isAvailable: Bool = {
    #if MARBLES_TESTED_RUNTIME
      Platform.runsTheTestedRuntime
    #else
      false
    #endif
  }()

  /// Whether standard readings of time can be virtual in this process
  /// (``Platform/readsVirtualTime``), asked once.
  package static let readingsCanBeVirtual: Bool =
    isAvailable && Platform.readsVirtualTime

  /// A world opens: installs the hooks unless they are in place, saving the ones they replace.
  /// Where the runtime code cannot run, or readings of time cannot be virtual, the first world
  /// says so instead, once per process.
  static func worldOpens() {
    #if MARBLES_TESTED_RUNTIME
      if isAvailable {
        DefaultExecutor.install()
        VirtualDispatch.install()
        state.withLock { state in
          state.schedulers += 1
          if state.schedulers == 1 { installMainExecutorHook() }
          installIfReplaced(&state)
        }
        if !readingsCanBeVirtual { sayOnce(realReadingsNotice) }
        return
      }
    #endif
    sayOnce(untestedToolchainNotice)
  }

  /// Prints `notice` unless this process has printed a notice of Marbles' before.
  private static func sayOnce(_ notice: String) {
    let isFirst = state.withLock { state in
      defer { state.hasSaidToolchain = true }
      return !state.hasSaidToolchain
    }
    if isFirst { Platform.printError(notice + "\n") }
  }

  /// A scheduler joins an open world: the global hook is checked again, since another library
  /// may have replaced it meanwhile (swift-concurrency-extras' `withMainSerialExecutor` unsets
  /// whatever hook is there when it ends).
  static func schedulerJoins() {
    #if MARBLES_TESTED_RUNTIME
      guard isAvailable else { return }
      state.withLock { state in
        guard state.schedulers > 0 else { return }
        installIfReplaced(&state)
      }
    #endif
  }

  #if MARBLES_TESTED_RUNTIME
    /// Marbles' main executor hook.
    private static let mainExecutorHook: MarblesMainExecutorHook = { _ in
      unsafeBitCast(MainActorRouter.shared.asUnownedSerialExecutor(), to: MarblesExecutorRef.self)
    }

    /// The main executor hook found when Marbles installed its own (in a process without other
    /// hooks, none). Read and written under `state`'s lock.
    nonisolated(unsafe) private static var foundMainExecutorHook: MarblesMainExecutorHook?

    /// Marbles' main-executor enqueue hook: a job bound for the runtime's own main executor —
    /// a task that was on the main actor before the hooks were installed, resumed — is asked the
    /// one routing question too; what no world takes goes where it was going.
    private static let enqueueMainExecutorHook: MarblesEnqueueMainExecutorHook = { job, original in
      guard !Membership.take(job, on: .main) else { return }
      if let found = foundEnqueueMainExecutorHook.withLock({ $0 }) {
        found(job, original)
      } else {
        original(job)
      }
    }

    /// The main-executor enqueue hook found when Marbles installed its own.
    private static let foundEnqueueMainExecutorHook = Locked<MarblesEnqueueMainExecutorHook?>(nil)

    /// Marbles' "is this the main executor?" hook: ``MainActorRouter`` is, as is whatever the
    /// runtime counts (its own main executor, on which the job that opened the first world runs
    /// until it suspends).
    private static let isMainExecutorHook: MarblesIsMainExecutorHook = { executor, original in
      UInt(bitPattern: executor.identity) == routerIdentity || original(executor)
    }

    private static let routerIdentity = UInt(
      bitPattern: unsafeBitCast(
        MainActorRouter.shared.asUnownedSerialExecutor(), to: MarblesExecutorRef.self
      ).identity)

    /// The "is this the main executor?" hook found when Marbles installed its own. Read and
    /// written under `state`'s lock.
    nonisolated(unsafe) private static var foundIsMainExecutorHook: MarblesIsMainExecutorHook?

    private static func installMainExecutorHook() {
      let installed = swift_task_getMainExecutor_hook
      guard rawPointer(installed) != rawPointer(mainExecutorHook) else { return }
      foundMainExecutorHook = installed
      swift_task_getMainExecutor_hook = mainExecutorHook
      foundIsMainExecutorHook = swift_task_isMainExecutor_hook
      swift_task_isMainExecutor_hook = isMainExecutorHook
      let enqueue = swift_task_enqueueMainExecutor_hook
      foundEnqueueMainExecutorHook.withLock { $0 = enqueue }
      swift_task_enqueueMainExecutor_hook = enqueueMainExecutorHook
    }

    private static func uninstallMainExecutorHook() {
      if rawPointer(swift_task_getMainExecutor_hook) == rawPointer(mainExecutorHook) {
        swift_task_getMainExecutor_hook = foundMainExecutorHook
      }
      if rawPointer(swift_task_isMainExecutor_hook) == rawPointer(isMainExecutorHook) {
        swift_task_isMainExecutor_hook = foundIsMainExecutorHook
      }
      if rawPointer(swift_task_enqueueMainExecutor_hook) == rawPointer(enqueueMainExecutorHook) {
        swift_task_enqueueMainExecutor_hook = foundEnqueueMainExecutorHook.withLock { $0 }
      }
      foundEnqueueMainExecutorHook.withLock { $0 = nil }
      foundMainExecutorHook = nil
      foundIsMainExecutorHook = nil
    }

    private static func rawPointer(_ hook: MarblesMainExecutorHook?) -> UnsafeRawPointer? {
      hook.map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
    }

    private static func rawPointer(_ hook: MarblesIsMainExecutorHook?) -> UnsafeRawPointer? {
      hook.map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
    }

    private static func rawPointer(_ hook: MarblesEnqueueMainExecutorHook?) -> UnsafeRawPointer? {
      hook.map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
    }

    private static func installIfReplaced(_ state: inout State) {
      let installed = rawHook(swift_task_enqueueGlobal_hook)
      let ours = rawHook(globalHook)
      guard installed != ours else {
        state.isInstalled = true
        return
      }
      foundGlobalHook.store(UInt(bitPattern: installed), ordering: .releasing)
      swift_task_enqueueGlobal_hook = globalHook
      state.isInstalled = true
    }
  #endif

  /// A world closes: after the last, puts back the hooks Marbles found.
  static func worldCloses() {
    #if MARBLES_TESTED_RUNTIME
      guard isAvailable else { return }
      state.withLock { state in
        state.schedulers -= 1
        guard state.schedulers == 0 else { return }
        uninstallMainExecutorHook()
        guard state.isInstalled else { return }
        state.isInstalled = false
        let found = UnsafeRawPointer(
          bitPattern: foundGlobalHook.exchange(0, ordering: .acquiringAndReleasing))
        guard rawHook(swift_task_enqueueGlobal_hook) == rawHook(globalHook) else { return }
        swift_task_enqueueGlobal_hook = found.map { unsafeBitCast($0, to: MarblesGlobalHook.self) }
      }
    #endif
  }

  /// What of Marbles is in place in the process now, read from the runtime itself where it can be:
  /// its hooks, its default executor, its Dispatch handlers, its watchdog thread, an open world.
  /// Empty in a process that has opened no world (and again after the last closed, but for the
  /// default executor and the Dispatch handlers, which then pass everything through).
  package static var installedParts: [String] {
    var parts: [String] = []
    #if MARBLES_TESTED_RUNTIME
      if swift_task_enqueueGlobal_hook != nil { parts.append("a global enqueue hook") }
      if swift_task_getMainExecutor_hook != nil { parts.append("a main executor hook") }
      if swift_task_isMainExecutor_hook != nil { parts.append("an is-main-executor hook") }
      if swift_task_enqueueMainExecutor_hook != nil {
        parts.append("a main-executor enqueue hook")
      }
    #endif
    if DefaultExecutor.isDefault { parts.append("Marbles' default executor") }
    if marbles_dispatch_handlers_are_set() { parts.append("Marbles' Dispatch handlers") }
    if Watchdog.isWatching { parts.append("Marbles' watchdog thread") }
    if Registry.openWorlds.load(ordering: .acquiring) > 0 { parts.append("an open world") }
    return parts
  }

  /// Whether Marbles' global hook is the runtime's now.
  static var isGlobalHookInstalled: Bool {
    #if MARBLES_TESTED_RUNTIME
      rawHook(swift_task_enqueueGlobal_hook) == rawHook(globalHook)
    #else
      false
    #endif
  }

  /// What a scheduler says once per process where the concurrency runtime is not one Marbles was
  /// tested on.
  static let untestedToolchainNotice =
    "Marbles: this process's Swift concurrency runtime is not one Marbles' runtime hooks were "
    + "tested on (Swift 6.3's; on Apple platforms, the OS's from the 26.4 releases on), so they "
    + "are left out: schedulers drive signals, scheduler.clock and scheduler.task, but not the "
    + "other tasks a test starts, and standard sleeps and readings of time stay real."

  /// What a scheduler says once per process where readings of time cannot be virtual.
  static let realReadingsNotice =
    "Marbles: readings of time in this process stay real — Date(), ContinuousClock.now, "
    + "DispatchTime.now() — because they do not reach Marbles' clock wrapper (on Apple platforms, "
    + "dyld interposing reaches only the images loaded at launch, not a test bundle xctest loads; "
    + "on Linux, a statically linked executable). Standard sleeps and the tasks a test starts are "
    + "still driven; give code that reads the time scheduler.clock."

  #if MARBLES_TESTED_RUNTIME
    typealias MarblesGlobalHook = MarblesEnqueueGlobalHook

    private static func rawHook(_ hook: MarblesGlobalHook?) -> UnsafeRawPointer? {
      hook.map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
    }
  #endif
}

/// The main actor's executor while Marbles' hooks are installed: a job that belongs to a driver
/// goes to it; every other job runs on the main queue, as the runtime's own main executor does.
///
/// Jobs run "on" this executor, so that a main-actor task hopping to the main actor again does not
/// suspend; its isolation checks ask whether the main queue is the current one.
final class MainActorRouter: SerialExecutor, Sendable {
  static let shared = MainActorRouter()

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if !Membership.take(unsafeBitCast(job, to: MarblesJobRef.self), on: .main) {
      Self.enqueueOnMainQueue(job)
    }
  }

  /// Runs a main-actor job on the main queue, as the runtime's own main executor does.
  static func enqueueOnMainQueue(_ job: UnownedJob) {
    RealTime.reading {
      DispatchQueue.main.async {
        job.runSynchronously(on: MainActorRouter.shared.asUnownedSerialExecutor())
      }
    }
  }

  func checkIsolated() {
    dispatchPrecondition(condition: .onQueue(.main))
  }

  @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
  func isIsolatingCurrentContext() -> Bool? {
    MainQueue.isCurrent
  }
}
