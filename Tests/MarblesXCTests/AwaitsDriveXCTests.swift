import MarbleTesting
import Marbles
import TestSupport
import XCTest

/// XCTest's async test methods that only await app code, in a world the class's one line opens
/// for every test: time moves when everything waits, to the exact millisecond.
final class AwaitsDriveXCTests: XCTestCase {
  // The one line: every test of the class in a world of its own.
  override func invokeTest() { withVirtualTime { _ in super.invokeTest() } }

  var scheduler: TestScheduler { TestScheduler.current! }

  func check(_ name: String, _ transcript: [String], line: UInt = #line) {
    XCTAssertEqual(transcript, AwaitScenarios.expected[name], line: line)
  }

  func testATimeoutHelperWhoseWorkWins() async throws {
    check("timeoutWorkWins", try await AwaitScenarios.timeoutWorkWins(scheduler))
  }

  func testATimeoutHelperWhoseTimeoutWins() async {
    check("timeoutTimeoutWins", await AwaitScenarios.timeoutTimeoutWins(scheduler))
  }

  func testAsyncLets() async {
    check("asyncLets", await AwaitScenarios.asyncLets(scheduler))
  }

  func testATaskGroupOfChildrenSleepingDifferentDurations() async {
    check("taskGroup", await AwaitScenarios.taskGroup(scheduler))
  }

  func testAnAppTasksValue() async throws {
    check("appTaskValue", try await AwaitScenarios.appTaskValue(scheduler))
  }

  func testForAwaitOverAStreamFedByASleepingProducer() async {
    check("forAwait", await AwaitScenarios.forAwait(scheduler))
  }

  func testAMainActorModelsLoadThatStartsChildWork() async {
    check("mainActorModel", await AwaitScenarios.mainActorModel(scheduler))
  }

  func testARetryClientWithBackoff() async throws {
    check("retries", try await AwaitScenarios.retries(scheduler))
  }

  func testATaskStartedInAnActorsMethod() async throws {
    check("taskStartedInAnActor", try await AwaitScenarios.taskStartedInAnActor(scheduler))
  }

  func testATaskOf42() async {
    check("aTaskOf42", await AwaitScenarios.aTaskOf42(scheduler))
  }

  func testExplicitDrivingMixedWithAwaits() async throws {
    check("explicitAndAwaits", try await AwaitScenarios.explicitAndAwaits(scheduler))
  }

  func testFulfillmentOfAnExpectationThatWorldWorkFulfills() async {
    let done = expectation(description: "fetched")
    let scheduler = scheduler
    Task {
      try await Task.sleep(for: .seconds(2))
      done.fulfill()
    }
    await fulfillment(of: [done], timeout: 5)
    XCTAssertEqual(scheduler.now, 2000)
  }

  func testWaitForInASynchronousTestIsMetByWorldWork() {
    let done = expectation(description: "fetched")
    let woke = Task {
      try await Task.sleep(for: .seconds(2))
      done.fulfill()
    }
    wait(for: [done], timeout: 5)
    XCTAssertEqual(scheduler.now, 2000)
    _ = woke
  }
}

/// The same with one line per test, as a new user writes it: the test's first `TestScheduler()`
/// opens its world.
final class AwaitsDriveOneLineXCTests: XCTestCase {
  func testATimeoutHelperWhoseWorkWins() async throws {
    let scheduler = TestScheduler()
    let transcript = try await AwaitScenarios.timeoutWorkWins(scheduler)
    XCTAssertEqual(transcript, AwaitScenarios.expected["timeoutWorkWins"])
  }

  func testATaskGroupOfChildrenSleepingDifferentDurations() async {
    let scheduler = TestScheduler()
    let transcript = await AwaitScenarios.taskGroup(scheduler)
    XCTAssertEqual(transcript, AwaitScenarios.expected["taskGroup"])
  }

  func testARetryClientWithBackoff() async throws {
    let scheduler = TestScheduler()
    let transcript = try await AwaitScenarios.retries(scheduler)
    XCTAssertEqual(transcript, AwaitScenarios.expected["retries"])
  }

  func testFulfillment() async {
    let scheduler = TestScheduler()
    let done = expectation(description: "fetched")
    Task {
      try await Task.sleep(for: .seconds(2))
      done.fulfill()
    }
    await fulfillment(of: [done], timeout: 5)
    XCTAssertEqual(scheduler.now, 2000)
  }
}
