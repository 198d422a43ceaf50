import Signals
import Testing

@Suite("Signal+FlattenMap")
struct SignalFlattenMapTests {
  @Test("flattenMap merges the inner signals' values")
  func mergesInnerValues() {
    let recorder = Recorder<Int, Never>()
    Signal<Int, Never>.from([1, 2])
      .flattenMap { value in Signal.from([value * 10, value * 10 + 1]) }
      .subscribe(recorder)
    #expect(recorder.events == [.next(10), .next(11), .next(20), .next(21), .completed])
  }

  @Test("flattenMap interleaves live inner signals and completes after the source and all inners")
  func completesAfterEveryone() {
    let source = Subject<String, Never>()
    let inners = ["a": Subject<Int, Never>(), "b": Subject<Int, Never>()]
    let recorder = Recorder<Int, Never>()
    source.flattenMap { inners[$0]!.asSignal() }.subscribe(recorder)
    source.sendNext("a")
    inners["a"]!.sendNext(1)
    source.sendNext("b")
    inners["b"]!.sendNext(2)
    inners["a"]!.sendNext(3)
    source.sendCompleted()
    inners["a"]!.sendCompleted()
    #expect(!recorder.isTerminated)
    inners["b"]!.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .next(3), .completed])
  }

  @Test("An inner error ends the result and disposes the source and the other inners")
  func innerErrorDisposesTheRest() {
    let source = Probe<Int, TestFailure>()
    let first = Probe<Int, TestFailure>()
    let second = Probe<Int, TestFailure>()
    let recorder = Recorder<Int, TestFailure>()
    source.signal.flattenMap { $0 == 1 ? first.signal : second.signal }.subscribe(recorder)
    source.sendNext(1)
    source.sendNext(2)
    first.sendError(TestFailure())
    #expect(recorder.events == [.error(TestFailure())])
    #expect(source.isDisposed())
    #expect(first.isDisposed())
    #expect(second.isDisposed())
    second.sendNext(5)
    #expect(recorder.events == [.error(TestFailure())])
  }

  @Test("A source error ends the result and disposes the inners")
  func sourceErrorDisposesInners() {
    let source = Probe<Int, TestFailure>()
    let inner = Probe<Int, TestFailure>()
    let recorder = Recorder<Int, TestFailure>()
    source.signal.flattenMap { _ in inner.signal }.subscribe(recorder)
    source.sendNext(1)
    source.sendError(TestFailure())
    #expect(inner.isDisposed())
    #expect(recorder.events == [.error(TestFailure())])
  }

  @Test("Disposing the result disposes the source and every inner subscription")
  func disposalReachesEveryone() {
    let source = Probe<Int, Never>()
    let inner = Probe<Int, Never>()
    let subscription = source.signal.flattenMap { _ in inner.signal }.subscribe(Recorder())
    source.sendNext(1)
    source.sendNext(2)
    subscription.dispose()
    #expect(source.isDisposed())
    #expect(inner.isDisposed(0))
    #expect(inner.isDisposed(1))
  }

  @Test("Each value subscribes to its inner signal anew (a cold inner runs once per value)")
  func innerRunsPerValue() {
    let inner = Probe<Int, Never> { $0.sendCompleted() }
    Signal<Int, Never>.from([1, 2, 3]).flattenMap { _ in inner.signal }.subscribe(Recorder())
    #expect(inner.subscriptionCount == 3)
  }
}
