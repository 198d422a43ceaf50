import Dispatch
import MarbleTesting
@_spi(Internals) import Signals
import Synchronization
import Testing
import XCTest

#if !canImport(Darwin)
  @_spi(Reflection) import Swift
#endif

/// `MARBLES_EXPLORE=N` for an XCTest test: a test case whose `invokeTest()` opens its worlds
/// (`override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }`) runs each of
/// its tests once per schedule — the first run in the test case XCTest made, every later one in a
/// fresh instance of it, set up and torn down, each in a world of its own — and the schedule that
/// fails is reported at that line, with the token that replays it (`MARBLES_REPLAY`). A test whose
/// world opens in its body is run again so when its plain run ends.
///
/// XCTest runs a test on its main thread, synchronously, and the exploration is `async`: the
/// exploration runs on a task of its own, and hands each run to the test's thread, which waits
/// for the next until the exploration ends.
enum XCTestExploration {
  /// Whether an XCTest test is being explored now: a world one of its runs opens outside the
  /// run's schedule (at a scheduler made on a thread of its own) explores nothing more.
  private static let isExploring = Atomic(false)

  /// Explores the XCTest test running here, whose whole run `withVirtualTime` in `invokeTest()`
  /// was asked to run (see ``TestFrameworkBridge``).
  ///
  /// - Returns: `false` if no XCTest test case runs here, or this platform's XCTest does not let
  ///   one be made afresh: nothing ran.
  static func exploreTheRunningTest(
    _ count: Int, at site: SchedulerSite, runningItFirstWith runHere: () -> Void
  ) -> Bool {
    guard !isExploring.load(ordering: .acquiring) else { return true }
    guard let (running, fresh) = runningTestCase() else { return false }
    // NB: the first run is handed to this thread while this call waits for the exploration.
    withoutActuallyEscaping(runHere) { runHere in
      explore(count, fresh, named: running.name, reportingAt: site, firstRun: FirstRun(runHere))
    }
    return true
  }

  /// The XCTest test case running here, and the maker of fresh instances of it, if there is one
  /// and this platform's XCTest lets one be made afresh.
  private static func runningTestCase() -> (XCTestCase, FreshTestCase)? {
    guard Test.current == nil, let running = XCTestWatcher.shared.runningTestCase,
      let fresh = FreshTestCase(of: running)
    else { return nil }
    return (running, fresh)
  }

  /// The first run of an explored test, in the test case XCTest made: its failures, skips and
  /// expectations are XCTest's own, as in a run without exploring.
  ///
  /// NB: @unchecked: run on the test's thread only, while the exploration that holds it lasts.
  struct FirstRun: @unchecked Sendable {
    let run: () -> Void

    init(_ run: @escaping () -> Void) {
      self.run = run
    }
  }

  /// Explores the XCTest test running here when its run ends — in a teardown block, once the
  /// world its run opened is closed — for a test whose world opens in its body (at its first
  /// `TestScheduler()`, in `withVirtualTime`): the run so far is a plain one, and the exploration
  /// runs the whole test again, once per schedule (see ``TestFrameworkBridge``).
  ///
  /// - Returns: `false` if no XCTest test case runs here, or this platform's XCTest does not let
  ///   one be made afresh: nothing will run.
  static func exploreWhenTheTestEnds(_ count: Int, at site: SchedulerSite) -> Bool {
    guard !isExploring.load(ordering: .acquiring) else { return true }
    guard let (running, fresh) = runningTestCase() else { return false }
    // A test whose body opens several worlds is explored once.
    guard XCTestWatcher.shared.takesTheEnd(of: running) else { return true }
    let name = running.name
    running.addTeardownBlock { [unowned running] in
      // NB: a world the plain run opened at its first scheduler closes with the test; it is
      // closed first, so that the runs' own schedulers open worlds of their own.
      XCTestWatcher.shared.closeWorlds(ofTest: name)
      // A plain run that failed has failed the test already, in the usual order: the schedules
      // would only fail it again, schedule 0 first. One that skipped the test skipped it.
      guard let run = running.testRun, run.totalFailureCount == 0, run.skipCount == 0 else {
        return
      }
      explore(count, fresh, named: name, reportingAt: site)
    }
    return true
  }

  /// Runs the test `fresh` makes once per schedule, on this thread, and reports the schedule that
  /// failed at `site`.
  private static func explore(
    _ count: Int, _ fresh: FreshTestCase, named name: String, reportingAt site: SchedulerSite,
    firstRun: FirstRun? = nil
  ) {
    isExploring.store(true, ordering: .releasing)
    defer { isExploring.store(false, ordering: .releasing) }
    let handOff = HandOff()
    Task.detached {
      var isFirst = true
      let exploration = await ScheduleExploring.explore(
        count, seed: nil, replay: nil, opensWorlds: false,
        replayAdvice: { token in
          "replay it: MARBLES_REPLAY=\"\(token)\" with this test alone (`swift test --filter "
            + "\(name.replacing(".", with: "/"))`), or exploreSchedules(replay: \"\(token)\") "
            + "around its code"
        }
      ) {
        // NB: the run's schedule, issue capture and record mode are this task's; the test's
        // thread takes them.
        let schedule = ScheduleRun.current
        let capture = IssueCapture.current
        let recording = MarbleRecording.scoped
        let first = isFirst ? firstRun : nil
        isFirst = false
        await handOff.run {
          MarbleRecording.$scoped.withValue(recording) {
            IssueCapture.$current.withValue(capture) {
              ScheduleRun.$current.withValue(schedule) {
                if let first {
                  first.run()
                } else {
                  XCTestWatcher.shared.whileRunning(fresh.make) { $0.invokeTest() }
                }
              }
            }
          }
        }
      }
      handOff.finish(exploration)
    }
    if let failure = handOff.serve().failure {
      SourceSite(fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
        .report(failure.description)
    }
  }

  /// Runs on the test's thread what the exploration's task hands it, one run at a time, until
  /// the exploration ends.
  final class HandOff: Sendable {
    private struct State {
      var runs: [@Sendable () -> Void] = []
      /// What the exploration found, once it is over.
      var exploration: ScheduleExploration?
    }

    private let state = Mutex(State())
    private let signal = DispatchSemaphore(value: 0)

    /// Runs `work` on the test's thread; returns when it ran.
    func run(_ work: @escaping @Sendable () -> Void) async {
      await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        state.withLock {
          $0.runs.append {
            work()
            done.resume()
          }
        }
        signal.signal()
      }
    }

    /// Ends the serving: the exploration is over, and found `exploration`.
    func finish(_ exploration: ScheduleExploration) {
      state.withLock { $0.exploration = exploration }
      signal.signal()
    }

    /// Serves the runs handed over, on this thread, until the exploration is over.
    ///
    /// - Returns: What it found.
    func serve() -> ScheduleExploration {
      while true {
        RealTime.reading { signal.wait() }
        let (run, exploration) = state.withLock { state in
          (state.runs.isEmpty ? nil : state.runs.removeFirst(), state.exploration)
        }
        if let run {
          run()
        } else if let exploration {
          return exploration
        }
      }
    }
  }
}

/// Registers the XCTest watcher as the process loads, when the environment asks for every test
/// explored (called by `CMarbleRuntime`'s constructor): it must see each test case start.
@_cdecl("marbles_watch_xctest_from_load")
func watchXCTestFromLoad() {
  guard XCTestWatcher.mayRunXCTest else { return }
  _ = XCTestWatcher.shared
}

/// Makes fresh instances of the XCTest test case running now: one per run of an explored test,
/// as XCTest makes one per test.
///
/// NB: @unchecked: made and used on the test's thread; XCTest's test cases are not `Sendable`.
struct FreshTestCase: @unchecked Sendable {
  let make: () -> XCTestCase

  #if canImport(Darwin)
    /// Not on Apple platforms (written for, not built here): XCTest there makes a test case from
    /// an Objective-C invocation, which Swift does not reach; the test is not explored, and its
    /// world says so.
    init?(of testCase: XCTestCase) { return nil }
  #else
    /// The closure that runs one test on a test case, as XCTest keeps it.
    private struct Closure {
      let run: XCTestCaseClosure
    }

    /// Where an instance of `XCTestCase` keeps its test's closure (`testClosure`, private to
    /// swift-corelibs-xctest), if it is there and of the type its initializer takes.
    private static let closureOffset: Int? = {
      var offset: Int?
      _ = _forEachField(of: XCTestCase.self, options: _EachFieldOptions(rawValue: 1 << 0)) {
        name, fieldOffset, type, _ in
        guard String(cString: name) == "testClosure",
          ObjectIdentifier(type) == ObjectIdentifier(XCTestCaseClosure.self)
        else { return true }
        offset = fieldOffset
        return false
      }
      return offset
    }()

    /// A maker of instances of `testCase`'s class running its test, or `nil` if this XCTest keeps
    /// the test's closure where it cannot be read.
    init?(of testCase: XCTestCase) {
      guard let offset = Self.closureOffset,
        let test = testCase.name.split(separator: ".").last.map(String.init)
      else { return nil }
      // NB: read as a struct holding the closure: a closure read as a generic value would be taken
      // for one of the most general representation, which a stored closure is not.
      let closure = withExtendedLifetime(testCase) {
        UnsafeRawPointer(Unmanaged.passUnretained(testCase).toOpaque())
          .load(fromByteOffset: offset, as: Closure.self)
      }
      let testCaseClass = type(of: testCase)
      make = { testCaseClass.init(name: test, testClosure: closure.run) }
    }
  #endif
}
