import Dispatch
import Signals
import Testing

@Suite("AnyDisposable")
struct AnyDisposableTests {
  @Test("The action runs on the first dispose only")
  func runsOnce() {
    let runs = Counter()
    let disposable = AnyDisposable { runs.increment() }
    #expect(!disposable.isDisposed)
    #expect(runs.value == 0)
    disposable.dispose()
    disposable.dispose()
    #expect(disposable.isDisposed)
    #expect(runs.value == 1)
  }

  @Test("The action runs once when many threads dispose at the same time")
  func runsOnceUnderContention() {
    let runs = Counter()
    let disposable = AnyDisposable { runs.increment() }
    DispatchQueue.concurrentPerform(iterations: 16) { _ in disposable.dispose() }
    #expect(runs.value == 1)
  }

  @Test("An AnyDisposable without an action records disposal")
  func withoutAction() {
    let disposable = AnyDisposable()
    #expect(!disposable.isDisposed)
    disposable.dispose()
    #expect(disposable.isDisposed)
  }

  @Test("The action is released after it runs")
  func releasesTheAction() {
    final class Token: Sendable {}
    weak var weakToken: Token?
    let disposable: AnyDisposable
    do {
      let token = Token()
      weakToken = token
      disposable = AnyDisposable { _ = token }
    }
    #expect(weakToken != nil)
    disposable.dispose()
    #expect(weakToken == nil)
  }
}
