import Signals
import Testing

/// A completed or disposed subscription releases its subscriber and closures (DESIGN.md, "No
/// retain cycles"). Each test keeps only a `weak` reference to a token captured by a closure; the
/// strong reference lives in a `do { }` scope so that ARC can release it.
@Suite("Memory", .tags(.memory))
struct MemoryTests {
  final class Token: Sendable {}

  @Test("A cold signal that never completes releases the subscriber's closures on dispose")
  func neverCompletingColdSignalReleasesOnDispose() {
    weak var weakToken: Token?
    let subscription: any Disposable
    do {
      let token = Token()
      weakToken = token
      subscription = Signal<Int, Never>.never.subscribe(next: { _ in _ = token })
    }
    #expect(weakToken != nil)
    subscription.dispose()
    #expect(weakToken == nil)
  }

  @Test(
    "A cold signal that completes releases the subscriber's closures, though the disposable is kept"
  )
  func completedColdSignalReleases() {
    weak var weakToken: Token?
    let subscriber = Shared<(any SubscriberProtocol<Int, Never>)?>(nil)
    let signal = Signal<Int, Never> {
      subscriber.value = $0; return nil
    }
    let subscription: any Disposable
    do {
      let token = Token()
      weakToken = token
      subscription = signal.subscribe(next: { _ in _ = token }, completed: { _ = token })
    }
    #expect(weakToken != nil)
    subscriber.value?.sendNext(1)
    subscriber.value?.sendCompleted()
    #expect(weakToken == nil)
    #expect(subscription.isDisposed)
  }

  @Test("The disposable a cold signal returned is released once the subscription ends")
  func closuresDisposableIsReleased() {
    weak var weakToken: Token?
    let subscription: any Disposable
    do {
      let token = Token()
      weakToken = token
      subscription = Signal<Int, Never> { _ in AnyDisposable { _ = token } }.subscribe(Recorder())
    }
    #expect(weakToken != nil)
    subscription.dispose()
    #expect(weakToken == nil)
  }

  @Test("A subject releases a disposed subscriber")
  func subjectReleasesDisposedSubscriber() {
    let subject = Subject<Int, Never>()
    weak var weakToken: Token?
    let subscription: any Disposable
    do {
      let token = Token()
      weakToken = token
      subscription = subject.subscribe(next: { _ in _ = token })
    }
    subject.sendNext(1)
    #expect(weakToken != nil)
    subscription.dispose()
    #expect(weakToken == nil)
  }

  @Test("A subject releases its subscribers when it completes")
  func subjectReleasesSubscribersOnCompletion() {
    let subject = ReplaySubject<Int, Never>()
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      subject.subscribe(next: { _ in _ = token })
    }
    subject.sendNext(1)
    #expect(weakToken != nil)
    subject.sendCompleted()
    #expect(weakToken == nil)
  }

  @Test("A map/flattenMap chain releases the subscriber and the operators' closures on dispose")
  func operatorChainReleasesOnDispose() {
    let source = Subject<Int, Never>()
    let inner = Subject<String, Never>()
    weak var weakToken: Token?
    weak var weakTransformToken: Token?
    let subscription: any Disposable
    do {
      let token = Token()
      let transformToken = Token()
      weakToken = token
      weakTransformToken = transformToken
      subscription = source.map { $0 + 1 }
        .flattenMap { _ in
          _ = transformToken
          return inner.map { $0.uppercased() }
        }
        .subscribe(next: { _ in _ = token })
    }
    source.sendNext(1)
    inner.sendNext("a")
    #expect(weakToken != nil)
    #expect(weakTransformToken != nil)
    subscription.dispose()
    #expect(weakToken == nil)
    #expect(weakTransformToken == nil)
  }

  @Test("A map/flattenMap chain releases the subscriber when it completes")
  func operatorChainReleasesOnCompletion() {
    let source = Subject<Int, Never>()
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      source.map { $0 * 2 }.flattenMap { Signal.just($0) }.subscribe(next: { _ in _ = token })
    }
    source.sendNext(1)
    #expect(weakToken != nil)
    source.sendCompleted()
    #expect(weakToken == nil)
  }

  @Test("An autoconnect subscription releases its subscriber on dispose")
  func autoconnectReleasesOnDispose() {
    let source = Subject<Int, Never>()
    let shared = source.publish().autoconnect()
    weak var weakToken: Token?
    let subscription: any Disposable
    do {
      let token = Token()
      weakToken = token
      subscription = shared.subscribe(next: { _ in _ = token })
    }
    source.sendNext(1)
    #expect(weakToken != nil)
    subscription.dispose()
    #expect(weakToken == nil)
  }

  @Test("An autoconnect subscription releases its subscriber when the source completes")
  func autoconnectReleasesOnCompletion() {
    let source = Subject<Int, Never>()
    let shared = source.multicast(ReplaySubject()).autoconnect()
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      shared.subscribe(next: { _ in _ = token })
    }
    source.sendNext(1)
    #expect(weakToken != nil)
    source.sendCompleted()
    #expect(weakToken == nil)
  }

  @Test("A subject fed by a cold signal is released once the feed completes")
  func fedSubjectIsReleased() {
    let feed = Shared<(any SubscriberProtocol<Int, Never>)?>(nil)
    let cold = Signal<Int, Never> {
      feed.value = $0; return nil
    }
    weak var weakSubject: Subject<Int, Never>?
    do {
      let subject = Subject<Int, Never>()
      weakSubject = subject
      cold.subscribe(subject)
    }
    #expect(weakSubject != nil)
    feed.value?.sendCompleted()
    #expect(weakSubject == nil)
  }

  @Test("A channel releases its subscribers when it completes")
  func channelReleasesSubscribersOnCompletion() {
    let channel = Channel<Int, Never>()
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      channel.followingTerminal.subscribe(next: { _ in _ = token })
      channel.leadingTerminal.subscribe(next: { _ in _ = token })
    }
    channel.leadingTerminal.sendNext(1)
    #expect(weakToken != nil)
    channel.followingTerminal.sendCompleted()
    #expect(weakToken == nil)
  }

  @Test(
    "A long-lived subscription that forwards 100,000 short ones keeps none of them once each ends")
  func forwardedSubscriptionsThatEndAreLetGo() {
    final class Weak: @unchecked Sendable {
      weak var object: AnyObject?
    }
    let forwarded = Shared<[Weak]>([])
    let disposeEach = Signal<Int, Never> { subscriber in
      var weakRefs: [Weak] = []
      for _ in 0..<100_000 {
        // The subscriber is handed on, so the inner subscription belongs to the outer one...
        let inner = Signal<Int, Never>.never.subscribe(subscriber)
        let weak = Weak()
        weak.object = inner as AnyObject
        weakRefs.append(weak)
        // ...and ends long before it.
        inner.dispose()
      }
      forwarded.value = weakRefs
      return nil
    }
    let outer = disposeEach.subscribe(Recorder())
    let retained = forwarded.value.filter { $0.object != nil }.count
    #expect(forwarded.value.count == 100_000)
    #expect(retained == 0, "the outer subscription keeps \(retained) finished inner ones")
    #expect(!outer.isDisposed)
    // One still running is kept, and disposed with the outer one.
    let live = Shared<(any Disposable)?>(nil)
    let keepOne = Signal<Int, Never> { subscriber in
      live.value = Signal<Int, Never>.never.subscribe(subscriber)
      return nil
    }
    let second = keepOne.subscribe(Recorder())
    #expect(live.value?.isDisposed == false)
    second.dispose()
    #expect(live.value?.isDisposed == true)
  }
}
