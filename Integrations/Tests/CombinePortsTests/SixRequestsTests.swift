import MarbleTesting
import Marbles
import MarblesOpenCombine
import OpenCombineShim
import Signals
import Synchronization
import Testing

/// The seeds' story (`../shared/seeds/004`), in Combine: a profile screen binds six views to one
/// request. As a cold `Deferred { Future { … } }`, the request runs six times; `share()` runs it
/// once, but a view bound after the answer misses it (it gets only the end);
/// `multicast(subject: CurrentValueSubject)` gives a view bound before the answer the current
/// value at once, and `makeConnectable()` makes the request start when the screen says so, once
/// every view is bound. Each scenario is a table: the `api subs` rows draw how many requests ran.
@Suite struct SixRequestsTests {
  struct Profile: Equatable, Sendable {
    var name = "Ada"
  }

  @Test func sixBindingsOfAColdRequestRunItSixTimes() {
    assertTable(
      """
      api    cold  ---(r|)
      name   sub   ^
      name   gets  ---(r|)
      photo  sub   ^
      photo  gets  ---(r|)
      bio    sub   ^
      bio    gets  ---(r|)
      posts  sub   ^
      posts  gets  ---(r|)
      fans   sub   ^
      fans   gets  ---(r|)
      likes  sub   ^
      likes  gets  ---(r|)
      api    subs  ^--!
      api    subs  ^--!
      api    subs  ^--!
      api    subs  ^--!
      api    subs  ^--!
      api    subs  ^--!
      """
    ) { (sources: TableSources<String, Never>) in profileRequest(sources["api"]) }
  }

  /// What it fixes: a binding made before the answer gets the current value at once (the
  /// placeholder), not nothing. What it does not: after the request completes, the subject has
  /// completed too, and a later binding gets only the end.
  @Test func aCurrentValueSubjectGivesEveryBindingTheCurrentValue() {
    assertTable(
      """
      api    cold  ---(r|)
      name   sub   ^
      name   gets  e--(r|)
      photo  sub   --^
      photo  gets  --e(r|)
      late   sub   -----^
      late   gets  -----|
      api    subs  ^--!
      """, values: ["e": "", "r": "r"]
    ) { (sources: TableSources<String, Never>) in
      profileRequest(sources["api"])
        .multicast(subject: CurrentValueSubject<String, Never>(""))
        .autoconnect()
    }
  }

  @Test func makeConnectableStartsTheRequestWhenTheScreenSaysSo() throws {
    let scheduler = TestScheduler()
    let api: TestSignal<String, Never> = try scheduler.cold("---(r|)")
    let connectable = profileRequest(api).makeConnectable()
    let name = scheduler.record(connectable, subscribeAt: 0)
    let photo = scheduler.record(connectable, subscribeAt: 1)
    let connection = Mutex<(any Cancellable)?>(nil)
    // The screen connects once both views are bound.
    let start = Unchecked(connectable)
    scheduler.schedule(at: 2) { connection.withLock { $0 = AnyCancellable(start.value.connect()) } }
    scheduler.run()
    assertMarbles(name, "-----(r|)")
    assertMarbles(photo, "-----(r|)")
    assertSubscriptions(api, "--^--!")
  }
}
