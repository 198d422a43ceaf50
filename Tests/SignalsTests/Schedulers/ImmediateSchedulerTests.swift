import Signals
import Testing

@Suite("ImmediateScheduler")
struct ImmediateSchedulerTests {
  @Test("schedule runs the action before returning")
  func runsBeforeReturning() {
    let runs = Counter()
    ImmediateScheduler().schedule { runs.increment() }
    #expect(runs.value == 1)
  }

  @Test("schedule(after:) ignores the delay and runs before returning")
  func afterRunsBeforeReturning() {
    let runs = Counter()
    ImmediateScheduler().schedule(after: .seconds(60)) { runs.increment() }
    #expect(runs.value == 1)
  }

  @Test("The actions run in call order, on the calling thread")
  func order() {
    let order = Shared<[Int]>([])
    let scheduler = ImmediateScheduler()
    scheduler.schedule {
      order.append(1)
      scheduler.schedule { order.append(2) }
      order.append(3)
    }
    #expect(order.value == [1, 2, 3])
  }
}
