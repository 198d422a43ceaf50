import Signals
import Testing

@Suite("SerialDisposable")
struct SerialDisposableTests {
  @Test("Setting a new inner disposable disposes the previous one")
  func replacingDisposesPrevious() {
    let first = AnyDisposable()
    let second = AnyDisposable()
    let serial = SerialDisposable(first)
    #expect(isSameObject(serial.inner, first))
    serial.inner = second
    #expect(first.isDisposed)
    #expect(!second.isDisposed)
    #expect(isSameObject(serial.inner, second))
    #expect(!serial.isDisposed)
  }

  @Test("Disposing disposes the current inner disposable")
  func disposingDisposesInner() {
    let inner = AnyDisposable()
    let serial = SerialDisposable()
    #expect(serial.inner == nil)
    serial.inner = inner
    serial.dispose()
    #expect(inner.isDisposed)
    #expect(serial.isDisposed)
    #expect(serial.inner == nil)
  }

  @Test("After dispose, a new inner disposable is disposed at once")
  func settingAfterDisposalDisposesAtOnce() {
    let serial = SerialDisposable()
    serial.dispose()
    let late = AnyDisposable()
    serial.inner = late
    #expect(late.isDisposed)
    #expect(serial.inner == nil)
  }

  @Test("Disposing twice disposes the inner disposable once")
  func idempotent() {
    let runs = Counter()
    let serial = SerialDisposable(AnyDisposable { runs.increment() })
    serial.dispose()
    serial.dispose()
    #expect(runs.value == 1)
  }
}
