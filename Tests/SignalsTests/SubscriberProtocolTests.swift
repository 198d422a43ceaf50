import Signals
import Testing

@Suite("SubscriberProtocol")
struct SubscriberProtocolTests {
  /// A subscriber using the default `didSubscribe(with:)`.
  struct Plain: SubscriberProtocol {
    let log: Shared<[String]>
    func sendNext(_ value: Int) { log.append("next \(value)") }
    func sendError(_ error: TestFailure) { log.append("error \(error.message)") }
    func sendCompleted() { log.append("completed") }
  }

  @Test("send(_:) calls the matching send method")
  func sendEvent() {
    let log = Shared<[String]>([])
    let subscriber = Plain(log: log)
    subscriber.send(.next(1))
    subscriber.send(.error(TestFailure(message: "x")))
    subscriber.send(.completed)
    #expect(log.value == ["next 1", "error x", "completed"])
  }

  @Test("A subscriber without didSubscribe(with:) still receives every event")
  func defaultDidSubscribe() {
    let log = Shared<[String]>([])
    Signal<Int, TestFailure>.from([1, 2]).subscribe(Plain(log: log))
    #expect(log.value == ["next 1", "next 2", "completed"])
  }
}
