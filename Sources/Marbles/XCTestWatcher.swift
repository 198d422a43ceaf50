import MarbleTesting
@_spi(Internals) import Signals
import XCTest

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
    /// The test cases whose test is explored when its run ends.
    var exploredAtTheEnd: Set<ObjectIdentifier> = []
    /// The worlds opened while a fresh instance of the running test case was made.
    var openedWhileMaking: [World] = []
  }

  private let state = Locked(State())

  /// The XCTest test case running now, if any. Registered in the middle of a test case (the
  /// first world of the process opened inside one), the watcher takes it that one is running.
  var runningTest: RunningTest? {
    state.withLock { state in
      if let running = state.running { return .xcTest(running.name) }
      return state.hasSeenTheRun || !Self.mayRunXCTest ? nil : .xcTest("")
    }
  }

  /// The XCTest test case running now, if the watcher saw it begin.
  var runningTestCase: XCTestCase? {
    state.withLock { $0.running?.testCase }
  }

  /// Makes a fresh instance of the running test case with `make` and runs its test with `run` —
  /// a run of an explored test — with it as the test case running: the worlds its test opens,
  /// and those its making opens (a scheduler kept in a property), close with its own teardown.
  func whileRunning(_ make: () -> XCTestCase, _ run: (XCTestCase) -> Void) {
    let previous = state.withLock { state -> RunningCase? in
      defer {
        state.running = state.running.map { RunningCase(testCase: nil, name: $0.name) }
      }
      return state.running
    }
    defer { state.withLock { $0.running = previous } }
    let testCase = make()
    let opened = state.withLock { state -> [World] in
      state.running = RunningCase(testCase: testCase, name: testCase.name)
      defer { state.openedWhileMaking = [] }
      return state.openedWhileMaking
    }
    for world in opened { testCase.addTeardownBlock { world.close() } }
    run(testCase)
  }

  /// Whether the test `testCase` runs is yet to be explored when its run ends: the first to ask
  /// takes that, and later ones are told `false`.
  func takesTheEnd(of testCase: XCTestCase) -> Bool {
    state.withLock { $0.exploredAtTheEnd.insert(ObjectIdentifier(testCase)).inserted }
  }

  /// Closes the worlds opened for test `name` so far.
  func closeWorlds(ofTest name: String) {
    let worlds = state.withLock { $0.worlds.removeValue(forKey: name) ?? [] }
    for world in worlds { world.close() }
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
    let running = state.withLock { state -> XCTestCase? in
      state.worlds[name, default: []].append(world)
      guard let running = state.running, running.name == name else { return nil }
      if running.testCase == nil { state.openedWhileMaking.append(world) }
      return running.testCase
    }
    running?.addTeardownBlock { world.close() }
  }

  func testBundleWillStart(_ testBundle: Bundle) {
    closeStaleWorlds()
  }

  func testSuiteWillStart(_ testSuite: XCTestSuite) {
    closeStaleWorlds()
  }

  func testCaseWillStart(_ testCase: XCTestCase) {
    closeStaleWorlds()
    let running = RunningCase(testCase: testCase, name: testCase.name)
    state.withLock { $0.running = running }
  }

  /// A watcher registered before the run (a scheduler made as a test case's property, when
  /// XCTest makes its test cases) learns it now: the worlds it took for a running test's were
  /// made outside any test, and close before the first test runs.
  private func closeStaleWorlds() {
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
      state.exploredAtTheEnd.remove(ObjectIdentifier(testCase))
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
  /// The test case; `nil` while a fresh instance of it is being made, for a run of its test
  /// under exploration (``XCTestWatcher/whileRunning(_:_:)``).
  let testCase: XCTestCase?
  /// Its name: XCTest's test name, `Class.test`.
  let name: String
}
