import Dispatch
package import MarbleTesting
@_spi(Internals) import Signals
import Testing
import XCTest

/// How `MarbleTesting` reaches the test framework that runs it: which test is running, how to
/// report on it from any thread, and when an XCTest test case ends. `MarbleTesting` finds this
/// type by name the first time it needs it (`TestFramework`); nothing is registered when the
/// process loads.
package enum WorldBridge: TestFrameworkBridge {
  package static var runningTest: RunningTest? {
    if let test = Test.current {
      let testCase = Test.Case.current.map { "\($0)" } ?? ""
      return .swiftTesting("\(test.id)|\(testCase)")
    }
    return XCTestWatcher.shared.runningTest
  }

  package static func makeReporter() -> any WorldReporter {
    ContextReporter()
  }

  package static func closeWhenTestEnds(_ world: World, _ test: RunningTest) {
    if case .xcTest = test { XCTestWatcher.shared.close(world, whenEnds: test) }
  }

  package static func report(_ message: String, at site: SchedulerSite) {
    SourceSite(fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
      .report(message)
  }
}

/// Reports on the test from wherever it is called: XCTest records a failure for the running test
/// case from any thread; outside a Swift Testing test's task, an issue goes to both frameworks.
struct DirectReporter: WorldReporter {
  func report(_ message: String, at site: SchedulerSite) {
    reportIssue(
      message, fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
  }

  func warn(_ message: String, at site: SchedulerSite) {
    reportWarning(
      message, fileID: site.fileID, filePath: site.filePath, line: site.line, column: site.column)
  }

  func run(_ work: @escaping @Sendable () -> Void) {
    work()
  }

  func finish() async {}
  func finishSoon() {}
}

/// Reports on the test from any thread, in the test's own context: a task made on the task that
/// opened the world carries its task locals — Swift Testing's `Test.current`, an exit test's —
/// and records each message, or runs each piece of work, there. It runs on a queue of its own,
/// not the cooperative pool, so that a busy pool does not hold a report back.
final class ContextReporter: WorldReporter {
  private struct Message: Sendable {
    enum Kind: Sendable {
      case issue(String, SchedulerSite)
      case warning(String, SchedulerSite)
      case work(@Sendable () -> Void)
    }

    var kind: Kind
    var done: DispatchSemaphore
  }

  private let messages: AsyncStream<Message>.Continuation
  private let recorder: Task<Void, Never>

  init() {
    let (stream, messages) = AsyncStream.makeStream(of: Message.self)
    self.messages = messages
    recorder = Task(executorPreference: ReporterExecutor.shared) {
      for await message in stream {
        switch message.kind {
        case .issue(let text, let site): DirectReporter().report(text, at: site)
        case .warning(let text, let site): DirectReporter().warn(text, at: site)
        case .work(let work): work()
        }
        RealTime.reading { _ = message.done.signal() }
      }
    }
  }

  func report(_ message: String, at site: SchedulerSite) {
    deliver(message, at: site, isWarning: false)
  }

  func warn(_ message: String, at site: SchedulerSite) {
    deliver(message, at: site, isWarning: true)
  }

  func run(_ work: @escaping @Sendable () -> Void) {
    // NB: a reporter that has finished runs nothing: its test's context is gone, and work run
    // outside it (cancelling a test's task) is recorded on no test, as an API misuse.
    _ = send(.work(work))
  }

  /// Records on the test's own task directly; from elsewhere, through the recorder, waiting (a
  /// bounded time) until it is recorded. A reporter that has finished records directly.
  private func deliver(_ text: String, at site: SchedulerSite, isWarning: Bool) {
    if Test.current != nil {
      DirectReporter().deliver(text, at: site, isWarning: isWarning)
      return
    }
    switch send(isWarning ? .warning(text, site) : .issue(text, site)) {
    case .recorded: break
    case .finished: DirectReporter().deliver(text, at: site, isWarning: isWarning)
    case .timedOut:
      let label = isWarning ? "warning" : "error"
      Platform.printError("\(site.filePath):\(site.line): \(label): \(text)\n")
    }
  }

  private enum Delivery {
    case recorded, finished, timedOut
  }

  /// Hands `kind` to the recorder and waits for it, at most two seconds of real time.
  private func send(_ kind: Message.Kind) -> Delivery {
    let done = DispatchSemaphore(value: 0)
    guard case .enqueued = messages.yield(Message(kind: kind, done: done)) else { return .finished }
    return done.wait(timeout: .now() + .seconds(2)) == .success ? .recorded : .timedOut
  }

  func finish() async {
    messages.finish()
    await recorder.value
  }

  func finishSoon() {
    messages.finish()
  }
}

extension DirectReporter {
  fileprivate func deliver(_ text: String, at site: SchedulerSite, isWarning: Bool) {
    if isWarning { warn(text, at: site) } else { report(text, at: site) }
  }
}

/// Runs the reporters' tasks on a queue of their own.
final class ReporterExecutor: TaskExecutor {
  static let shared = ReporterExecutor()
  private let queue = DispatchQueue(label: "marbles.reporter")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    // NB: Marbles' own work, never a world's work handed outside.
    RealTime.reading { queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
  }
}

/// Which XCTest test case runs, seen through XCTest's observation API (registered at the first
/// world, not when the process loads), and the worlds to close when it finishes.
final class XCTestWatcher: NSObject, XCTestObservation, @unchecked Sendable {
  // NB: @unchecked: every mutable field is behind `state`.
  static let shared: XCTestWatcher = {
    let watcher = XCTestWatcher()
    XCTestObservationCenter.shared.addTestObserver(watcher)
    return watcher
  }()

  private struct State {
    /// Whether the watcher has seen the run begin: until it has, it does not know whether a test
    /// case is running now (it may have been registered in the middle of one).
    var hasSeenTheRun = false
    var running: RunningCase?
    var worlds: [String: [World]] = [:]
  }

  private let state = Locked(State())

  /// The XCTest test case running now, if any. Registered in the middle of a test case (the
  /// first world of the process opened inside one), the watcher takes it that one is running.
  var runningTest: RunningTest? {
    state.withLock { state in
      if let running = state.running { return .xcTest(running.testCase.name) }
      return state.hasSeenTheRun || !Self.mayRunXCTest ? nil : .xcTest("")
    }
  }

  /// Whether XCTest may be running a test case that the watcher has not seen begin: in a test
  /// runner, unless the run is Swift Testing's alone (`swift test` runs each library in a process
  /// of its own, Swift Testing's with `--testing-library swift-testing`). There, code with no
  /// test of its own — a scheduler made on a Dispatch worker thread — was taken for an unseen
  /// XCTest case's, and its world, waiting for XCTest to say the case finished, never closed:
  /// later work on that thread was routed to it and never run (a full parallel run hung).
  static let mayRunXCTest: Bool = {
    let arguments = CommandLine.arguments
    let isSwiftTestingRun = zip(arguments, arguments.dropFirst()).contains {
      $0 == "--testing-library" && $1 == "swift-testing"
    }
    // NB: a tool or a benchmark that links Marbles runs no tests; a world it opens before the
    // watcher saw a run is outside any test, for its scheduler's lifetime.
    return TestFramework.processRunsTests && !isSwiftTestingRun
  }()

  /// Closes `world` when `test` finishes: right after its teardown, before XCTest stops its
  /// clock, where the test case is known; else when XCTest says it finished.
  func close(_ world: World, whenEnds test: RunningTest) {
    guard case .xcTest(let name) = test else { return }
    let running = state.withLock { state -> RunningCase? in
      state.worlds[name, default: []].append(world)
      return state.running?.testCase.name == name ? state.running : nil
    }
    running?.testCase.addTeardownBlock { world.close() }
  }

  func testBundleWillStart(_ testBundle: Bundle) {
    closeWorldsOpenedBeforeTheRun()
  }

  func testSuiteWillStart(_ testSuite: XCTestSuite) {
    closeWorldsOpenedBeforeTheRun()
  }

  func testCaseWillStart(_ testCase: XCTestCase) {
    closeWorldsOpenedBeforeTheRun()
    let running = RunningCase(testCase: testCase)
    state.withLock { $0.running = running }
  }

  /// A watcher registered before the run (a scheduler made as a test case's property, when
  /// XCTest makes its test cases) learns it now: the worlds it took for a running test's were
  /// made outside any test, and close before the first test runs.
  private func closeWorldsOpenedBeforeTheRun() {
    let worlds = state.withLock { state -> [World] in
      guard !state.hasSeenTheRun else { return [] }
      state.hasSeenTheRun = true
      return state.worlds.removeValue(forKey: "") ?? []
    }
    for world in worlds { world.close() }
  }

  func testCaseDidFinish(_ testCase: XCTestCase) {
    let worlds = state.withLock { state -> [World] in
      state.hasSeenTheRun = true
      state.running = nil
      // A watcher registered in the middle of a test case filed its worlds under "".
      return (state.worlds.removeValue(forKey: testCase.name) ?? [])
        + (state.worlds.removeValue(forKey: "") ?? [])
    }
    for world in worlds { world.close() }
  }

  // MARK: Failures under exploration

  // An `XCTAssert*` that fails in a schedule under exploration fails that schedule: it is held
  // with the schedule's other issues (``IssueCapture``), read on the assertion's own task. XCTest
  // has recorded it already — it has no way to take a failure back — so a failing exploration in
  // XCTest shows the assertions' failures as well as the report.
  #if canImport(Darwin)
    // Written for Darwin, not built here: XCTest there tells observers of issues.
    func testCase(_ testCase: XCTestCase, didRecord issue: XCTIssue) {
      guard let capture = IssueCapture.current else { return }
      let place = issue.sourceCodeContext.location.map {
        "\(Self.shortPath($0.fileURL.path)):\($0.lineNumber): "
      }
      capture.append((place ?? "") + issue.compactDescription)
    }
  #else
    func testCase(
      _ testCase: XCTestCase, didFailWithDescription description: String, inFile filePath: String?,
      atLine lineNumber: Int
    ) {
      guard let capture = IssueCapture.current else { return }
      let place = filePath.map { "\(Self.shortPath($0)):\(lineNumber): " }
      capture.append((place ?? "") + description)
    }
  #endif

  /// A source file's path as a file ID reads: its folder and its name.
  private static func shortPath(_ path: String) -> String {
    path.split(separator: "/").suffix(2).joined(separator: "/")
  }
}

/// The XCTest test case running now, held across threads.
///
/// NB: @unchecked: XCTest's test case is not `Sendable`; the watcher only reads its name and adds
/// a teardown block, both of which XCTest allows from the test's own thread, where worlds open.
private struct RunningCase: @unchecked Sendable {
  let testCase: XCTestCase
}
