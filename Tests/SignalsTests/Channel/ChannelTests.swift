import Signals
import Testing

@Suite("Channel (seed 001)", .tags(.channel))
struct ChannelTests {
  @Test("Values sent on the leading terminal reach the following terminal's subscribers")
  func leadingToFollowing() {
    let channel = Channel<String, TestFailure>()
    let following = Recorder<String, TestFailure>()
    let leading = Recorder<String, TestFailure>()
    channel.followingTerminal.subscribe(following)
    channel.leadingTerminal.subscribe(leading)
    channel.leadingTerminal.sendNext("model")
    #expect(following.values == ["model"])
    #expect(leading.values.isEmpty)
  }

  @Test("Values sent on the following terminal reach the leading terminal's subscribers")
  func followingToLeading() {
    let channel = Channel<String, TestFailure>()
    let following = Recorder<String, TestFailure>()
    let leading = Recorder<String, TestFailure>()
    channel.followingTerminal.subscribe(following)
    channel.leadingTerminal.subscribe(leading)
    channel.followingTerminal.sendNext("view")
    #expect(leading.values == ["view"])
    #expect(following.values.isEmpty)
  }

  @Test("A newcomer on the following terminal gets the latest leading value (capacity 1)")
  func followingReplaysLatest() {
    let channel = Channel<String, TestFailure>()
    channel.leadingTerminal.sendNext("a")
    channel.leadingTerminal.sendNext("b")
    let newcomer = Recorder<String, TestFailure>()
    channel.followingTerminal.subscribe(newcomer)
    #expect(newcomer.values == ["b"])
  }

  @Test("A newcomer on the leading terminal gets nothing replayed (capacity 0)")
  func leadingReplaysNothing() {
    let channel = Channel<String, TestFailure>()
    channel.followingTerminal.sendNext("a")
    let newcomer = Recorder<String, TestFailure>()
    channel.leadingTerminal.subscribe(newcomer)
    #expect(newcomer.events.isEmpty)
    channel.followingTerminal.sendNext("b")
    #expect(newcomer.values == ["b"])
  }

  @Test(
    "sendCompleted on either terminal ends both",
    arguments: [true, false])
  func completionEndsBoth(onLeading: Bool) {
    let channel = Channel<String, TestFailure>()
    let following = Recorder<String, TestFailure>()
    let leading = Recorder<String, TestFailure>()
    channel.followingTerminal.subscribe(following)
    channel.leadingTerminal.subscribe(leading)
    let terminal = onLeading ? channel.leadingTerminal : channel.followingTerminal
    terminal.sendCompleted()
    #expect(following.events == [.completed])
    #expect(leading.events == [.completed])
    channel.leadingTerminal.sendNext("late")
    channel.followingTerminal.sendNext("late")
    #expect(following.events == [.completed])
    #expect(leading.events == [.completed])
    let late = Recorder<String, TestFailure>()
    channel.leadingTerminal.subscribe(late)
    #expect(late.events == [.completed])
  }

  @Test(
    "sendError on either terminal ends both with the error",
    arguments: [true, false])
  func errorEndsBoth(onLeading: Bool) {
    let channel = Channel<String, TestFailure>()
    let following = Recorder<String, TestFailure>()
    let leading = Recorder<String, TestFailure>()
    channel.followingTerminal.subscribe(following)
    channel.leadingTerminal.subscribe(leading)
    let terminal = onLeading ? channel.leadingTerminal : channel.followingTerminal
    terminal.sendError(TestFailure())
    #expect(following.events == [.error(TestFailure())])
    #expect(leading.events == [.error(TestFailure())])
  }

  @Test("A signal bound to a terminal feeds the other side; terminating the channel disposes it")
  func bindingASignalToATerminal() {
    let channel = Channel<Int, Never>()
    let model = Probe<Int, Never>()
    model.signal.subscribe(channel.leadingTerminal)
    let view = Recorder<Int, Never>()
    channel.followingTerminal.subscribe(view)
    model.sendNext(1)
    #expect(view.values == [1])
    channel.followingTerminal.sendCompleted()
    #expect(model.isDisposed())
  }
}
