import MarbleTesting
import Marbles
import Testing

@Suite struct AwaitsDriveSmokeTests {
  @Test(.virtualTime) func aTaskValue() async throws {
    let value = await Task { 42 }.value
    #expect(value == 42)
  }

  @Test(.virtualTime) func aSleepInTheBody() async throws {
    try await Task.sleep(for: .seconds(3))
    #expect(TestScheduler.current?.now == 3000)
  }

  @Test func anImplicitWorld() async throws {
    let scheduler = TestScheduler()
    let value = try await Task {
      try await Task.sleep(for: .seconds(1))
      return 7
    }.value
    #expect(value == 7)
    #expect(scheduler.now == 1000)
  }
}
