import Signals
import Testing

@Suite("SignalProtocol")
struct SignalProtocolTests {
  @Test("subscribe(next:error:completed:) routes each event to its closure")
  func closureSubscription() {
    let log = Shared<[String]>([])
    let subject = Subject<Int, TestFailure>()
    subject.subscribe(
      next: { log.append("next \($0)") },
      error: { log.append("error \($0.message)") },
      completed: { log.append("completed") })
    subject.sendNext(1)
    subject.sendError(TestFailure(message: "bad"))
    #expect(log.value == ["next 1", "error bad"])

    let completing = Subject<Int, TestFailure>()
    completing.subscribe(completed: { log.append("completed") })
    completing.sendNext(2)
    completing.sendCompleted()
    #expect(log.value == ["next 1", "error bad", "completed"])
  }

  @Test("asSignal() subscribes to the source directly, once per subscription")
  func asSignal() {
    let subject = Subject<Int, Never>()
    let signal = subject.asSignal()
    let recorder = Recorder<Int, Never>()
    let subscription = signal.subscribe(recorder)
    subject.sendNext(1)
    subscription.dispose()
    subject.sendNext(2)
    #expect(recorder.values == [1])

    let probe = Probe<Int, Never>()
    probe.signal.asSignal().subscribe(Recorder())
    #expect(probe.subscriptionCount == 1)
  }
}
