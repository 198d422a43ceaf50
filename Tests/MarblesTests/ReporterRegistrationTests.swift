import MarbleTesting
import Testing

/// `MarbleTesting` reports a hang no assertion carries through the reporter `Marbles` registers
/// with it (no lookup by a type's name): registered when the process loads `Marbles`.
@Suite struct ReporterRegistrationTests {
  #if compiler(>=6.3)
    @Test func marblesRegistersItsReporterWhenItLoads() {
      // No Marbles assertion has to have run: the registration is the load-time entry's.
      #expect(FailureReporter.current == "Marbles")
    }
  #endif

}
