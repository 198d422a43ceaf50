// snippet: linux-dispatch-queue
import Dispatch
import MarbleTesting
import Marbles
import MarblesOpenCombine
import OpenCombine
import OpenCombineDispatch
import Testing

/// Queries debounced on the main queue, as the app's code is typed (`DispatchQueue`), on virtual
/// time. On Linux the queue's scheduler is OpenCombine's `DispatchQueue.OCombine`, which needs
/// `import OpenCombineDispatch` and `import Dispatch`.
@Test func queriesAreDebouncedOnTheMainQueue() throws {
  let scheduler = TestScheduler()
  let main = scheduler.combine(for: DispatchQueue.OCombine.self)
  let queries = try scheduler.hot("-a-b----c------|")
  scheduler.expect(queries.publisher.debounce(for: .milliseconds(3), scheduler: main))
    .toBe("------b----c---|")
  scheduler.flush()
}
// snippet-end
