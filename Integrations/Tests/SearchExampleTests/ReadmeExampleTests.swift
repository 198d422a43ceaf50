import AsyncAlgorithms
import MarbleTesting
import Marbles
import Signals
import Testing

/// The root README's async example, verbatim: it must keep passing as written there.
@Suite struct ReadmeExampleTests {

  @Test func recordingASequence() throws {
    let scheduler = TestScheduler()
    let input = try scheduler.hot("-a--b-c---|")
    let debounced = scheduler.record(
      input.values.debounce(for: .milliseconds(2), clock: scheduler.clock))
    scheduler.run()
    assertMarbles(debounced, "---a----c-|")
    assertSubscriptions(input, "^---------!")
  }
}
