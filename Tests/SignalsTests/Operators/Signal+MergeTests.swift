import Signals
import Testing

@Suite("Signal+Merge")
struct SignalMergeTests {
  @Test("static merge interleaves values and completes when all complete")
  func staticMerge() {
    let a = Subject<Int, Never>()
    let b = Subject<Int, Never>()
    let recorder = Recorder<Int, Never>()
    Signal.merge([a.asSignal(), b.asSignal()]).subscribe(recorder)
    a.sendNext(1)
    b.sendNext(2)
    a.sendNext(3)
    a.sendCompleted()
    #expect(!recorder.isTerminated)
    b.sendNext(4)
    b.sendCompleted()
    #expect(recorder.events == [.next(1), .next(2), .next(3), .next(4), .completed])
  }

  @Test("static merge of no signals completes at once")
  func mergeOfNothing() {
    let recorder = Recorder<Int, Never>()
    Signal<Int, Never>.merge([]).subscribe(recorder)
    #expect(recorder.events == [.completed])
  }

  @Test("static merge subscribes to every signal once per subscription, in order")
  func mergeSubscribesEachOnce() {
    let order = Shared<[String]>([])
    let a = Signal<Int, Never> { subscriber in
      order.append("a")
      subscriber.sendNext(1)
      return nil
    }
    let b = Signal<Int, Never> { subscriber in
      order.append("b")
      subscriber.sendNext(2)
      return nil
    }
    let recorder = Recorder<Int, Never>()
    Signal.merge([a, b]).subscribe(recorder)
    #expect(order.value == ["a", "b"])
    #expect(recorder.values == [1, 2])
  }

  @Test("The first error ends the merge and disposes the others")
  func firstErrorEndsTheMerge() {
    let a = Probe<Int, TestFailure>()
    let b = Probe<Int, TestFailure>()
    let recorder = Recorder<Int, TestFailure>()
    Signal.merge([a.signal, b.signal]).subscribe(recorder)
    a.sendNext(1)
    b.sendError(TestFailure())
    a.sendNext(2)
    #expect(recorder.events == [.next(1), .error(TestFailure())])
    #expect(a.isDisposed())
  }

  @Test("instance merge(_:) merges this signal with another")
  func instanceMerge() {
    let a = Subject<String, Never>()
    let b = Subject<String, Never>()
    let recorder = Recorder<String, Never>()
    a.merge(b).subscribe(recorder)
    b.sendNext("b")
    a.sendNext("a")
    a.sendCompleted()
    b.sendCompleted()
    #expect(recorder.events == [.next("b"), .next("a"), .completed])
  }
}
