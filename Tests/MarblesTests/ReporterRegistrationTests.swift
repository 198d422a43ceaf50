import MarbleTesting
import Testing

/// `MarbleTesting` reports a hang no assertion carries through `Marbles`' bridge, which it finds
/// by name when it first needs it: nothing registers it when the process loads.
@Suite struct ReporterRegistrationTests {
  @Test func marblesReportsTheFailuresNoAssertionCarries() {
    // No Marbles assertion has to have run: the bridge is found by name.
    #expect(FailureReporter.current == "Marbles")
  }
}
