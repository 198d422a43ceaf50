import MarbleTesting
import Marbles
import Signals
import Testing

/// `tryMap(_:)`: a typed-throwing transform whose error fails the signal.
@Suite struct SignalTryMapTests {
  struct NotANumber: Error, Equatable {
    var text: String
  }

  @Test func transformsValuesUntilOneThrows() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("-1-x-3-|", error: NotANumber(text: "?"))
    let parsed = source.tryMap { (text) throws(NotANumber) -> Int in
      guard let number = Int(text) else { throw NotANumber(text: text) }
      return number
    }
    let recorder = scheduler.record(parsed)
    scheduler.run()
    assertMarbles(recorder, "-1-#", values: ["1": 1], error: NotANumber(text: "x"))
    assertSubscriptions(source, "^--!")
  }

  @Test func passesErrorsAndCompletion() throws {
    let scheduler = TestScheduler()
    let failing = try scheduler.cold("-1#")
    let completing = try scheduler.cold("-1|")
    let double: @Sendable (String) throws(TestError) -> Int = { 2 * Int($0)! }
    let failed = scheduler.record(failing.tryMap(double))
    let completed = scheduler.record(completing.tryMap(double))
    scheduler.run()
    assertMarbles(failed, "-2#", values: ["2": 2])
    assertMarbles(completed, "-2|", values: ["2": 2])
  }
}
