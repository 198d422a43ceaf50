import Signals
import Testing

@Suite struct SmokeTests {
  @Test func coldRunsPerSubscription() {
    let runs = Locked(0)
    let cold = Signal<Int, Never> { s in
      runs.withLock { $0 += 1 }
      s.sendNext(1); s.sendCompleted(); return nil
    }
    let got = Locked<[Int]>([])
    cold.subscribe(next: { v in got.withLock { $0.append(v) } })
    cold.subscribe(next: { v in got.withLock { $0.append(v) } })
    #expect(runs.withLock { $0 } == 2)
    #expect(got.withLock { $0 } == [1, 1])
  }
}
