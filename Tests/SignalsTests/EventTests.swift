import Signals
import Testing

@Suite("Event")
struct EventTests {
  typealias E = Event<String, TestFailure>

  @Test("isTerminal is true for error and completed only")
  func isTerminal() {
    #expect(!E.next("a").isTerminal)
    #expect(E.error(TestFailure()).isTerminal)
    #expect(E.completed.isTerminal)
  }

  @Test("value and failure extract the payload")
  func payloads() {
    #expect(E.next("a").value == "a")
    #expect(E.error(TestFailure()).value == nil)
    #expect(E.completed.value == nil)
    #expect(E.error(TestFailure(message: "x")).failure == TestFailure(message: "x"))
    #expect(E.next("a").failure == nil)
    #expect(E.completed.failure == nil)
  }

  @Test("map transforms values and keeps terminal events")
  func map() {
    #expect(E.next("a").map { $0.uppercased() } == .next("A"))
    #expect(E.error(TestFailure()).map { $0.count } == .error(TestFailure()))
    #expect(E.completed.map { $0.count } == .completed)
  }

  @Test("map rethrows the transform's error")
  func mapRethrows() {
    #expect(throws: TestFailure.self) {
      try E.next("a").map { _ -> Int in throw TestFailure() }
    }
  }

  @Test("Equatable and Hashable compare case and payload")
  func equatableHashable() {
    #expect(E.next("a") == .next("a"))
    #expect(E.next("a") != .next("b"))
    #expect(E.next("a") != .completed)
    #expect(E.error(TestFailure(message: "x")) != .error(TestFailure(message: "y")))
    let set: Set<Event<Int, Never>> = [.next(1), .next(1), .completed]
    #expect(set.count == 2)
  }

  @Test("description reads next(value), error(failure), completed")
  func description() {
    #expect(E.next("a").description == #"next("a")"#)
    #expect(Event<Int, Never>.next(1).description == "next(1)")
    #expect(E.completed.description == "completed")
    let error = E.error(TestFailure(message: "boom")).description
    #expect(error.hasPrefix("error("))
    #expect(error.contains(#"TestFailure(message: "boom")"#))
    #expect(error.hasSuffix(")"))
  }
}
