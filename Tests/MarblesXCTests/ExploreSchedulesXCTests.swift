import MarbleTesting
import Marbles
import Signals
import XCTest

/// Exploring schedules from XCTest: a Marbles assertion that fails in some order of same-tick
/// work fails the test once, at the call, with the report.
extension XCTestPathTests {
  func testExploreSchedulesReportsTheFailingOrderOnceAtTheCall() async {
    captured = []
    capturing = true
    let line = #line + 1
    let exploration = await exploreSchedules(50, seed: 5) {
      let scheduler = TestScheduler()
      let subject = Subject<String, Never>()
      let received = scheduler.record(subject)
      scheduler.task(name: "sends a") { subject.sendNext("a") }
      scheduler.task(name: "sends b") { subject.sendNext("b") }
      scheduler.run()
      assertMarbles(received, "(ab)")
    }
    capturing = false
    XCTAssertEqual(captured.count, 1)
    XCTAssertEqual(captured.first?.line, line)
    XCTAssertEqual(exploration.failure?.departures, 1)
    let report = captured.first?.description ?? ""
    XCTAssertTrue(report.contains("schedule 0 (FIFO) passes"), report)
    XCTAssertTrue(report.contains("marbles differ at frame 0"), report)
    XCTAssertTrue(report.contains("sends b"), report)
    XCTAssertTrue(report.contains("replay it: @Test(.exploringSchedules(replay: \"mrb1-"), report)
  }
}
