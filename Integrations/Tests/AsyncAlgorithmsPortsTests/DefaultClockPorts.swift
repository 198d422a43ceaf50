import AsyncAlgorithms
import MarbleTesting
import Testing

/// The timer, debounce and throttle ports run a second time with swift-async-algorithms' default
/// clocks — no clock argument, so `AsyncTimerSequence.repeating(every:)` runs on
/// `SuspendingClock`, `debounce(for:)` and `_throttle(for:latest:)` on `ContinuousClock` — through
/// the same diagrams as the injected ports (`TestTimer.swift`, `TestDebounce.swift`,
/// `TestThrottle.swift`, each diagram verbatim from swift-async-algorithms 1.1.4's test of the
/// name given). In a test with a scheduler every reading and sleep of those clocks is virtual, so
/// the marbles must be the same.
@Suite struct DefaultClockPorts {
  /// One `validate` block: its test's name, input and expected output diagrams, and the
  /// operator's arguments.
  struct Port: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var rate = 0
    var latest = true
    var output: String
    init(_ name: String, _ input: String, rate: Int = 0, latest: Bool = true, output: String) {
      (self.name, self.input, self.rate, self.latest, self.output) =
        (name, input, rate, latest, output)
    }
    var testDescription: String { name }
  }

  /// `TestTimer.swift`'s `test_tick1`, `test_tick2` and `test_tick3` with
  /// `AsyncTimerSequence.repeating(every:)`.
  @Test(arguments: [(1, "xxxxxxx[;|]"), (2, "-x-x-x-[;|]"), (3, "--x--x-[;|]")])
  func timer(interval: Int, output: String) throws {
    try validate(output: output) { _ in
      AsyncTimerSequence.repeating(every: .steps(interval)).map { _ in "x" }
    }
  }

  /// `TestTimer.swift`'s `test_tick2_event_skew3`, its inner sleep on the timer's own clock.
  @Test func timerEventSkew3() throws {
    try validate(output: "----x--x-[;x|]") { _ in
      AsyncTimerSequence.repeating(every: .steps(2)).map { (_) -> String in
        let clock = SuspendingClock()
        try? await clock.sleep(until: clock.now.advanced(by: .steps(3)))
        return "x"
      }
    }
  }

  /// `TestDebounce.swift`, every block, with `debounce(for: .steps(3))`.
  @Test(arguments: [
    Port("test_delayingValues", "abcd----e---f-g----|", output: "------d----e-----g-|"),
    Port("test_delayingValues_dangling_last", "abcd----e---f-g-|", output: "------d----e----[g|]"),
    Port("test_finishDoesntDebounce", "a|", output: "-[a|]"),
    Port("test_throwDoesntDebounce", "a^", output: "-^"),
    Port("test_noValues", "----|", output: "----|"),
  ])
  func debounce(_ port: Port) throws {
    try validate(port.input, output: port.output) {
      $0.inputs[0].debounce(for: .steps(3))
    }
  }

  /// `TestThrottle.swift`, every block, with `_throttle(for: .steps(rate), latest: latest)`.
  @Test(arguments: [
    Port("test_rate_0", "abcdefghijk|", rate: 0, latest: true, output: "abcdefghijk|"),
    Port(
      "test_rate_0_leading_edge", "abcdefghijk|", rate: 0, latest: false, output: "abcdefghijk|"),
    Port("test_rate_1", "abcdefghijk|", rate: 1, latest: true, output: "abcdefghijk|"),
    Port(
      "test_rate_1_leading_edge", "abcdefghijk|", rate: 1, latest: false, output: "abcdefghijk|"),
    Port("test_rate_2", "abcdefghijk|", rate: 2, latest: true, output: "a-c-e-g-i-k|"),
    Port(
      "test_rate_2_leading_edge", "abcdefghijk|", rate: 2, latest: false, output: "a-b-d-f-h-j|"),
    Port("test_rate_3", "abcdefghijk|", rate: 3, latest: true, output: "a--d--g--j--[k|]"),
    Port(
      "test_rate_3_leading_edge", "abcdefghijk|", rate: 3, latest: false, output: "a--b--e--h--[k|]"
    ),
    Port("test_throwing", "abcdef^hijk|", rate: 2, latest: true, output: "a-c-e-^"),
    Port("test_throwing_leading_edge", "abcdef^hijk|", rate: 2, latest: false, output: "a-b-d-^"),
    Port(
      "test_emission_2_rate_1", "-a-b-c-d-e-f-g-h-i-j-k-|", rate: 1, latest: true,
      output: "-a-b-c-d-e-f-g-h-i-j-k-|"),
    Port(
      "test_emission_2_rate_2", "-a-b-c-d-e-f-g-h-i-j-k-|", rate: 2, latest: true,
      output: "-a-b-c-d-e-f-g-h-i-j-k-|"),
    Port(
      "test_emission_3_rate_2", "--a--b--c--d--e--f--g|", rate: 2, latest: true,
      output: "--a--b--c--d--e--f--g|"),
    Port(
      "test_emission_2_rate_3", "-a-b-c-d-e-f-g-h-i-j-k-|", rate: 3, latest: true,
      output: "-a---c---e---g---i---k-|"),
    Port(
      "test_trailing_delay_without_latest", "abcdefghijkl|", rate: 3, latest: false,
      output: "a--b--e--h--[k|]"),
    Port(
      "test_trailing_delay_with_latest", "abcdefghijkl|", rate: 3, latest: true,
      output: "a--d--g--j--[l|]"),
  ])
  func throttle(_ port: Port) throws {
    try validate(port.input, output: port.output) {
      $0.inputs[0]._throttle(for: .steps(port.rate), latest: port.latest)
    }
  }
}
