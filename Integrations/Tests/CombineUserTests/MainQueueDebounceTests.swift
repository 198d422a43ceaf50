import Dispatch
import MarbleTesting
import Marbles
import OpenCombine
import OpenCombineDispatch
import Synchronization
import Testing

/// An app's debounce on the real main queue — `DispatchQueue.main.ocombine`, not a scheduler of
/// Marbles' — fed from the test's body: its `asyncAfter` is the world's, and the value arrives at
/// 300 ms of virtual time, on the main queue. (On 2026-11-26's `main` it had sent nothing after
/// `advance(by: 300 ms)`.)
@Suite struct MainQueueDebounceTests {
  @Test func aDebounceOnTheMainQueueSendsAt300Milliseconds() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<String, Never>()
    let received = Mutex<[String]>([])
    let cancellable =
      subject
      .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main.ocombine)
      .sink { value in
        dispatchPrecondition(condition: .onQueue(.main))
        received.withLock { $0.append("\(value)@\(scheduler.now)") }
      }
    subject.send("a")
    scheduler.advance(by: .milliseconds(100))
    subject.send("b")
    scheduler.advance(by: .milliseconds(299))
    #expect(received.withLock { $0 }.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(received.withLock { $0 } == ["b@400"])
    cancellable.cancel()
  }

  @MainActor @Test func fromTheMainActorToo() async throws {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<String, Never>()
    let received = Mutex<[String]>([])
    let cancellable =
      subject
      .debounce(for: .milliseconds(300), scheduler: DispatchQueue.main.ocombine)
      .sink { value in received.withLock { $0.append("\(value)@\(scheduler.now)") } }
    subject.send("a")
    try await Task.sleep(for: .milliseconds(500))
    #expect(received.withLock { $0 } == ["a@300"])
    cancellable.cancel()
  }
}
